package org.rocprofsys.testkit;

/** How a finished process ended: its exit code and its two outputs. */
public record ProcessResult(int exitCode, String stdout, String stderr) {
    /** Standard output followed by standard error. */
    public String all() {
        return stdout + stderr;
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- stdout ---\n" + stdout + "\n--- stderr ---\n" + stderr;
    }
}
