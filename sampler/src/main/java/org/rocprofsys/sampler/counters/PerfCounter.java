package org.rocprofsys.sampler.counters;

import java.util.List;
import org.rocprofsys.sampler.perf.PerfEventAttr;

/**
 * A perf event counter as PAPI's perf_event component names it ({@code perf::<NAME>}): the
 * generalized hardware and software events of {@code linux/perf_event.h}, under their
 * {@code PERF_COUNT_*} names and perf's own aliases.
 */
public record PerfCounter(String name, int type, long config, String description, boolean kernel) {
    /** Counted in user space only. */
    public PerfCounter(String name, int type, long config, String description) {
        this(name, type, config, description, false);
    }

    /** The counting attributes of this event for the calling process: user space only unless {@link #kernel}. */
    public PerfEventAttr attr() {
        long flags = PerfEventAttr.FLAG_DISABLED | PerfEventAttr.FLAG_EXCLUDE_HV;
        return new PerfEventAttr(
                type, config, 0, 0, 0, kernel ? flags : flags | PerfEventAttr.FLAG_EXCLUDE_KERNEL, 0, 0, 0, 0, 0);
    }

    /**
     * Whether the event only ever happens in the kernel's context (a context switch, a CPU
     * migration): counted in user space only, as every other counter, it would always read 0.
     */
    public boolean kernelSide() {
        return type == PerfEventAttr.TYPE_SOFTWARE && (config == SW_CONTEXT_SWITCHES || config == SW_CPU_MIGRATIONS);
    }

    /** The same event, counted in the kernel too. */
    public PerfCounter withKernel() {
        return new PerfCounter(name, type, config, description, true);
    }

    static final long SW_CONTEXT_SWITCHES = 3;
    static final long SW_CPU_MIGRATIONS = 4;

    public boolean hardware() {
        return type == PerfEventAttr.TYPE_HARDWARE;
    }

    private static PerfCounter hw(String name, long config, String description) {
        return new PerfCounter("perf::" + name, PerfEventAttr.TYPE_HARDWARE, config, description);
    }

    private static PerfCounter sw(String name, long config, String description) {
        return new PerfCounter("perf::" + name, PerfEventAttr.TYPE_SOFTWARE, config, description);
    }

    /** perf_hw_id and perf_sw_ids, each under its PERF_COUNT_ name and its perf alias. */
    public static final List<PerfCounter> ALL = List.of(
            hw("PERF_COUNT_HW_CPU_CYCLES", 0, "Total cycles"),
            hw("CYCLES", 0, "Total cycles (alias of PERF_COUNT_HW_CPU_CYCLES)"),
            hw("PERF_COUNT_HW_INSTRUCTIONS", 1, "Retired instructions"),
            hw("INSTRUCTIONS", 1, "Retired instructions (alias of PERF_COUNT_HW_INSTRUCTIONS)"),
            hw("PERF_COUNT_HW_CACHE_REFERENCES", 2, "Cache accesses (usually last-level cache)"),
            hw("CACHE-REFERENCES", 2, "Cache accesses (alias of PERF_COUNT_HW_CACHE_REFERENCES)"),
            hw("PERF_COUNT_HW_CACHE_MISSES", 3, "Cache misses (usually last-level cache)"),
            hw("CACHE-MISSES", 3, "Cache misses (alias of PERF_COUNT_HW_CACHE_MISSES)"),
            hw("PERF_COUNT_HW_BRANCH_INSTRUCTIONS", 4, "Retired branch instructions"),
            hw("BRANCHES", 4, "Retired branch instructions (alias of PERF_COUNT_HW_BRANCH_INSTRUCTIONS)"),
            hw("PERF_COUNT_HW_BRANCH_MISSES", 5, "Mispredicted branch instructions"),
            hw("BRANCH-MISSES", 5, "Mispredicted branch instructions (alias of PERF_COUNT_HW_BRANCH_MISSES)"),
            hw("PERF_COUNT_HW_BUS_CYCLES", 6, "Bus cycles"),
            hw("PERF_COUNT_HW_STALLED_CYCLES_FRONTEND", 7, "Stalled cycles during issue"),
            hw("PERF_COUNT_HW_STALLED_CYCLES_BACKEND", 8, "Stalled cycles during retirement"),
            hw("PERF_COUNT_HW_REF_CPU_CYCLES", 9, "Total cycles, not affected by CPU frequency scaling"),
            sw("PERF_COUNT_SW_CPU_CLOCK", 0, "CPU clock, a high-resolution per-CPU timer (ns)"),
            sw("CPU-CLOCK", 0, "CPU clock (alias of PERF_COUNT_SW_CPU_CLOCK)"),
            sw("PERF_COUNT_SW_TASK_CLOCK", 1, "Clock count specific to the task that is running (ns)"),
            sw("TASK-CLOCK", 1, "Task clock (alias of PERF_COUNT_SW_TASK_CLOCK)"),
            sw("PERF_COUNT_SW_PAGE_FAULTS", 2, "Page faults"),
            sw("PAGE-FAULTS", 2, "Page faults (alias of PERF_COUNT_SW_PAGE_FAULTS)"),
            sw("PERF_COUNT_SW_CONTEXT_SWITCHES", 3, "Context switches"),
            sw("CONTEXT-SWITCHES", 3, "Context switches (alias of PERF_COUNT_SW_CONTEXT_SWITCHES)"),
            sw("PERF_COUNT_SW_CPU_MIGRATIONS", 4, "Migrations of the task to another CPU"),
            sw("CPU-MIGRATIONS", 4, "CPU migrations (alias of PERF_COUNT_SW_CPU_MIGRATIONS)"),
            sw("PERF_COUNT_SW_PAGE_FAULTS_MIN", 5, "Minor page faults (no disk I/O)"),
            sw("MINOR-FAULTS", 5, "Minor page faults (alias of PERF_COUNT_SW_PAGE_FAULTS_MIN)"),
            sw("PERF_COUNT_SW_PAGE_FAULTS_MAJ", 6, "Major page faults (disk I/O)"),
            sw("MAJOR-FAULTS", 6, "Major page faults (alias of PERF_COUNT_SW_PAGE_FAULTS_MAJ)"),
            sw("PERF_COUNT_SW_ALIGNMENT_FAULTS", 7, "Alignment faults"),
            sw("PERF_COUNT_SW_EMULATION_FAULTS", 8, "Instructions emulated by the kernel"));
}
