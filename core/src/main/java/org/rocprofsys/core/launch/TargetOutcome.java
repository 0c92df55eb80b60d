package org.rocprofsys.core.launch;

import org.rocprofsys.core.event.ProcessEnd;

/**
 * How the launched target ended, and the exit code rocprof-sys-run passes on (a shell's 128+N
 * for a signal).
 */
public record TargetOutcome(ProcessEnd how, int status) {
    public int exitCode() {
        return how == ProcessEnd.KILLED_BY_SIGNAL ? 128 + status : status;
    }

    public String describe() {
        return switch (how) {
            case EXITED -> "exited with code " + status;
            case KILLED_BY_SIGNAL -> "was killed by signal " + status + " (" + SignalNames.name(status) + ")";
            default -> "ended (" + how.name().toLowerCase(java.util.Locale.ROOT) + ")";
        };
    }
}
