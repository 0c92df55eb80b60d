package org.rocprofsys.core.spi;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rocprofsys.config.Settings;

/**
 * Makes the session parts of one kind of collection (process sampling, call-stack sampling, a GPU
 * tracing backend) that a run's settings ask for; none where they ask for nothing.
 */
@FunctionalInterface
public interface SourceProvider {
    /**
     * @param targetEnvironment the target's environment (for switches that are not settings)
     * @throws IllegalArgumentException for settings the source cannot work with (a usage error)
     */
    List<? extends SessionPart> sources(Settings settings, Map<String, String> targetEnvironment, PrintStream log);

    /** Every provider's parts, in the providers' order. */
    static List<SessionPart> all(
            List<SourceProvider> providers, Settings settings, Map<String, String> targetEnvironment, PrintStream log) {
        List<SessionPart> out = new ArrayList<>();
        for (SourceProvider p : providers) {
            out.addAll(p.sources(settings, targetEnvironment, log));
        }
        return out;
    }
}
