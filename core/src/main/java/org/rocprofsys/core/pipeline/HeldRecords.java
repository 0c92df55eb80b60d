package org.rocprofsys.core.pipeline;

/**
 * How much a source may hold of what it copied while the target runs before it analyses some of
 * it: the agent rings' records in the {@link Collector}, the kernel's samples in the call-stack
 * sampler. Analysis waits so that it does not take a CPU the target could use; the budget keeps
 * long runs from growing without bound (docs/benchmarks.md, "Analysis after the run" and "Records
 * held while the target runs").
 */
public final class HeldRecords {
    private static final long MAX_BYTES = 512L << 20;

    private HeldRecords() {}

    /**
     * Holding the rings' records pays where the collector shares a few CPUs with the target; with 4
     * or more, decoding them as they come costs the target nothing measurable and ends the run
     * sooner (docs/benchmarks.md, "Records held while the target runs").
     */
    static final int MAX_CPUS_HOLDING_RINGS = 3;

    /** The setting's value that leaves the budget to the machine ({@link PipelineTuning#HOLD_BYTES}). */
    static final long AUTOMATIC = -1;

    /** A quarter of the collector's heap, at most 512 MiB, for each source that holds. */
    public static long defaultBytes() {
        return Math.min(MAX_BYTES, Runtime.getRuntime().maxMemory() / 4);
    }

    /**
     * What the collector holds of the agent rings' records on a machine of {@code cpus} CPUs: the
     * default budget on up to {@value #MAX_CPUS_HOLDING_RINGS} CPUs, else nothing; {@code set}
     * (ROCPROFSYS_COLLECTOR_HOLD_BYTES) other than {@value #AUTOMATIC} sets it (0 or less: never).
     */
    static long forRings(int cpus, long set) {
        if (set != AUTOMATIC) {
            return Math.max(0, set);
        }
        return cpus <= MAX_CPUS_HOLDING_RINGS ? defaultBytes() : 0;
    }
}
