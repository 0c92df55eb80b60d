package org.rocprofsys.rocprofv3.cli;

import java.util.List;
import java.util.Map;

/**
 * A parsed rocprofv3 command line: the settings its options set (environment variables of the
 * run), the program to run, and one notice per accepted option that has no effect yet.
 *
 * @param help whether {@code -h/--help} was given (nothing runs)
 */
public record Rocprofv3Invocation(
        Map<String, String> settings, List<String> command, List<String> notices, boolean help) {
    public Rocprofv3Invocation {
        settings = Map.copyOf(settings);
        command = List.copyOf(command);
        notices = List.copyOf(notices);
    }
}
