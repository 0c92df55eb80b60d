package org.rocprofsys.run.cli;

import java.util.Optional;

/**
 * Bad usage of {@code rocprof-sys-run}: an unknown option, a wrong number of values, a value that
 * is not valid for its option or setting, conflicting or missing options, or no command at all.
 * Upstream prints the message (or only the usage line) to stderr and exits with status 1.
 */
public final class RunUsageException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String option;
    private final boolean usageOnly;

    RunUsageException(String option, String message) {
        super(message);
        this.option = option;
        this.usageOnly = false;
    }

    private RunUsageException(String message, boolean usageOnly) {
        super(message);
        this.option = null;
        this.usageOnly = usageOnly;
    }

    /** No arguments, or options but no command: upstream prints only {@link RunHelp#usageLine()}. */
    static RunUsageException usage() {
        return new RunUsageException(RunHelp.usageLine(), true);
    }

    static RunUsageException general(String message) {
        return new RunUsageException(message, false);
    }

    /** The option at fault as the user may spell it, e.g. {@code -v/--verbose}; empty for usage-only errors. */
    public Optional<String> option() {
        return Optional.ofNullable(option);
    }

    /**
     * True where upstream prints nothing but the usage line ({@code Usage: rocprof-sys-run <OPTIONS>
     * -- <COMMAND> <ARGS>}); the message is then that line.
     */
    public boolean usageOnly() {
        return usageOnly;
    }

    /** The exit status upstream uses for every usage error. */
    public int exitCode() {
        return 1;
    }
}
