package org.rocprofsys.sampler.source;

import java.util.Optional;
import org.rocprofsys.config.proc.ProcFs;
import org.rocprofsys.config.proc.StatusFields;

/**
 * Whether this process may sample the kernel-mode time of the target as perf does: root,
 * CAP_PERFMON or CAP_SYS_ADMIN, or kernel.perf_event_paranoid at most 1 (Documentation/admin-guide
 * /perf-security.rst). Upstream's cputime metric is "CPU time spent in both user- and kernel-mode",
 * so kernel samples are taken wherever the kernel allows them.
 */
final class KernelSampling {
    private static final int CAP_SYS_ADMIN = 21;
    private static final int CAP_PERFMON = 38;

    private KernelSampling() {}

    /** Empty when kernel samples are allowed; otherwise why not, for the one line said about it. */
    static Optional<String> refusal(ProcFs proc) {
        // the kernel asks perfmon_capable(): CAP_PERFMON or CAP_SYS_ADMIN (root has both), not the uid
        long capEff = proc.read("self/status")
                .map(StatusFields::parse)
                .flatMap(s -> Optional.ofNullable(s.fields().get("CapEff")))
                .map(h -> Long.parseUnsignedLong(h.strip(), 16))
                .orElse(0L);
        if ((capEff & (1L << CAP_PERFMON)) != 0 || (capEff & (1L << CAP_SYS_ADMIN)) != 0) {
            return Optional.empty();
        }
        String paranoid = proc.sysctl("kernel/perf_event_paranoid").orElse("?").strip();
        try {
            if (Integer.parseInt(paranoid) <= 1) {
                return Optional.empty();
            }
        } catch (NumberFormatException e) {
            // unreadable: said as such below
        }
        return Optional.of("kernel.perf_event_paranoid is " + paranoid
                + " and the profiler has neither CAP_PERFMON nor CAP_SYS_ADMIN (root has both) (kernel samples need"
                + " perf_event_paranoid <= 1: sudo sysctl -w kernel.perf_event_paranoid=1)");
    }
}
