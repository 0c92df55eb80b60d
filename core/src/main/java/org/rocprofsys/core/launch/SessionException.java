package org.rocprofsys.core.launch;

/** A run that could not be carried out: the target cannot be executed, a bad time window, a broken ring file. */
public final class SessionException extends Exception {
    private final int exitCode;

    public SessionException(String message) {
        this(message, 0);
    }

    /** @param exitCode the code the launcher exits with (a shell's 126 or 127 for a command it cannot execute) */
    public SessionException(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }

    /** The exit code this failure calls for, or 0 when the launcher's usual error code fits. */
    public int exitCode() {
        return exitCode;
    }
}
