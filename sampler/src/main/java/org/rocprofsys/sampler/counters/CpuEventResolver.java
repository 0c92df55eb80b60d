package org.rocprofsys.sampler.counters;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rocprofsys.sampler.perf.PerfEvents;
import org.rocprofsys.sampler.perf.PerfException;

/**
 * Turns the CPU counter names of ROCPROFSYS_PAPI_EVENTS into perf events the agent opens in each
 * thread: PAPI's {@code perf::} names (as {@link PerfCounter} lists them) and the PAPI presets that
 * are perf's generalized hardware events. Each is opened once here before the launch, so an event
 * this machine cannot count (every hardware event on a VM without a PMU) is refused with its
 * reason instead of recording nothing.
 */
public final class CpuEventResolver {
    /** PAPI presets that PAPI's perf_event component maps to one generalized perf event. */
    private static final Map<String, String> PRESETS = Map.of(
            "PAPI_TOT_CYC", "perf::PERF_COUNT_HW_CPU_CYCLES",
            "PAPI_TOT_INS", "perf::PERF_COUNT_HW_INSTRUCTIONS",
            "PAPI_BR_INS", "perf::PERF_COUNT_HW_BRANCH_INSTRUCTIONS",
            "PAPI_BR_MSP", "perf::PERF_COUNT_HW_BRANCH_MISSES",
            "PAPI_REF_CYC", "perf::PERF_COUNT_HW_REF_CPU_CYCLES",
            "PAPI_L3_TCA", "perf::PERF_COUNT_HW_CACHE_REFERENCES",
            "PAPI_L3_TCM", "perf::PERF_COUNT_HW_CACHE_MISSES");

    /** How the probe of one event went: null when it opens. */
    @FunctionalInterface
    interface Probe {
        String refusal(PerfCounter c);
    }

    private CpuEventResolver() {}

    /**
     * What became of the names: per name (in order, at most {@link #MAX_EVENTS}) its perf event,
     * or empty where it is refused, one problem per refusal naming the event and why, and notes on
     * events that are recorded but cannot count everything here.
     */
    public record Resolution(List<Optional<PerfCounter>> slots, List<String> problems, List<String> notes) {
        public Resolution {
            slots = List.copyOf(slots);
            problems = List.copyOf(problems);
            notes = List.copyOf(notes);
        }

        /** Whether any event is counted. */
        public boolean counts() {
            return slots.stream().anyMatch(Optional::isPresent);
        }

        /** The agent's ROCPROFSYS_AGENT_COUNTERS: {@code type:config} per slot, {@code -} for a refused one. */
        public String agentSpec() {
            List<String> out = new ArrayList<>();
            for (Optional<PerfCounter> c : slots) {
                out.add(c.map(p -> p.type() + ":" + p.config() + (p.kernel() ? ":k" : ""))
                        .orElse("-"));
            }
            return String.join(",", out);
        }
    }

    public static Resolution resolve(List<String> names) {
        return resolve(names, CpuEventResolver::probe);
    }

    static Resolution resolve(List<String> names, Probe probe) {
        List<Optional<PerfCounter>> out = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        if (names.size() > MAX_EVENTS) {
            problems.add(names.size() + " CPU events given, at most " + MAX_EVENTS
                    + " are recorded together: " + String.join(", ", names.subList(MAX_EVENTS, names.size()))
                    + " left out");
        }
        for (String name : names.subList(0, Math.min(names.size(), MAX_EVENTS))) {
            Optional<PerfCounter> c = find(name);
            String refusal = c.isEmpty() ? null : probe.refusal(c.get());
            if (c.isEmpty()) {
                problems.add("unknown CPU event '" + name + "' (rocprof-sys-avail -H lists the CPU events by name)");
            } else if (refusal != null) {
                problems.add("CPU event '" + name + "' cannot be counted on this machine: "
                        + (c.get().hardware()
                                ? "it is a hardware event and the CPU's counters are not available here (" + refusal
                                        + ")"
                                : refusal)
                        + "; rocprof-sys-avail -H shows which events are available");
            }
            if (c.isPresent() && refusal == null && c.get().kernelSide()) {
                // counted where it happens, in the kernel, where perf_event_paranoid (<= 1) or
                // CAP_PERFMON allow it; else user space only, where it reads 0: said once
                String kernelRefusal = probe.refusal(c.get().withKernel());
                if (kernelRefusal == null) {
                    c = Optional.of(c.get().withKernel());
                } else {
                    notes.add("CPU event '" + name + "' happens in the kernel, which this process may not count ("
                            + kernelRefusal + "; perf_event_paranoid <= 1 or CAP_PERFMON allow it): it reads 0");
                }
            }
            out.add(refusal == null ? c : Optional.empty());
        }
        return new Resolution(out, problems, notes);
    }

    /** The agent records at most this many counters (its metric flags hold 8). */
    public static final int MAX_EVENTS = 8;

    static Optional<PerfCounter> find(String name) {
        String perfName = PRESETS.getOrDefault(name, name);
        for (PerfCounter c : PerfCounter.ALL) {
            if (c.name().equals(perfName)) {
                return Optional.of(new PerfCounter(name, c.type(), c.config(), c.description()));
            }
        }
        return Optional.empty();
    }

    private static String probe(PerfCounter c) {
        try {
            PerfEvents.probe(c.attr());
            return null;
        } catch (PerfException e) {
            return "perf_event_open: " + PerfEvents.shortReason(e);
        }
    }
}
