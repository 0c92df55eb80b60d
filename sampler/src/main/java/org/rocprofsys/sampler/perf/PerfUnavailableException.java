package org.rocprofsys.sampler.perf;

/**
 * perf_event_open cannot be used on this machine or for this event (refused by
 * perf_event_paranoid or a seccomp filter, no such PMU, no syscall). The caller falls back
 * (the agent's timer sampler) after printing {@link #getMessage()}, which names the cause and
 * the fix.
 */
public final class PerfUnavailableException extends PerfException {
    private static final long serialVersionUID = 1L;

    /** Why perf is unavailable. */
    public enum Reason {
        /** EACCES / EPERM: perf_event_paranoid, missing CAP_PERFMON, seccomp, LSM. */
        PERMISSION,
        /** ENOENT / ENODEV / EOPNOTSUPP: the PMU or the event does not exist here (no hardware PMU in VMs). */
        NO_SUCH_EVENT,
        /** ENOSYS or an architecture without a known syscall number. */
        NO_SYSCALL,
        /** EINVAL for PERF_SAMPLE_READ with inherit: the kernel predates Linux 6.12, which allows it. */
        NO_SAMPLE_READ
    }

    private final Reason reason;

    public PerfUnavailableException(Reason reason, String message, int errno) {
        super(message, errno);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
