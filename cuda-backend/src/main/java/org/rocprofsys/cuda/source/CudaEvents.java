package org.rocprofsys.cuda.source;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.rocprofsys.core.spi.SettingWords;
import org.rocprofsys.cuda.counters.MetricCatalog;

/**
 * {@code ROCPROFSYS_CUDA_EVENTS}: the metrics collected per kernel through CUPTI's range profiler,
 * as CUPTI names them ({@code smsp__inst_executed.sum}). Checked against the GPUs' metric catalog
 * before the target starts where one can be read; the injection library checks again (and says
 * which metric CUPTI refused) when a context is set up.
 */
public final class CudaEvents {
    public static final String SETTING = "ROCPROFSYS_CUDA_EVENTS";
    /** What the injection library reads (cuda-backend/src/main/c/rsys_cuda_counters.c). */
    static final String AGENT_EVENTS = "ROCPROFSYS_AGENT_CUDA_EVENTS";
    /** The most metrics the injection library collects in one run. */
    static final int MAX_METRICS = 32;

    private CudaEvents() {}

    /**
     * The metric names of a comma (or space, semicolon) separated list, without repeats.
     *
     * @throws IllegalArgumentException for more than {@link #MAX_METRICS} names or a name CUPTI
     *                                  could not take (characters outside a metric's alphabet)
     */
    public static List<String> parse(String value) {
        Set<String> names = new LinkedHashSet<>();
        for (String token : SettingWords.of(value, "[ ,;]+")) {
            if (!token.matches("[A-Za-z0-9_.:]+")) {
                throw new IllegalArgumentException("invalid " + SETTING + " metric: " + token);
            }
            names.add(token);
        }
        if (names.size() > MAX_METRICS) {
            throw new IllegalArgumentException(
                    SETTING + " names " + names.size() + " metrics; at most " + MAX_METRICS + " are collected at once");
        }
        return List.copyOf(names);
    }

    /**
     * The metrics no GPU of {@code catalog} knows, as one error message naming them and saying how
     * to list the valid ones; empty when every metric is known or the catalog lists no GPU (no
     * device here, or no CUPTI: the injection library then decides).
     */
    public static java.util.Optional<String> unknown(List<String> metrics, MetricCatalog catalog) {
        List<String> chips = catalog.chips();
        if (chips.isEmpty()) {
            return java.util.Optional.empty();
        }
        List<String> unknown = new ArrayList<>();
        for (String m : metrics) {
            if (chips.stream().noneMatch(chip -> catalog.knows(chip, m))) {
                unknown.add(m);
            }
        }
        if (unknown.isEmpty()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("unknown " + SETTING + " metric" + (unknown.size() > 1 ? "s" : "") + ": "
                + String.join(", ", unknown) + " (not a metric of " + String.join(", ", chips)
                + "); rocprof-sys-avail -H lists the valid ones (a counter takes a rollup: .sum, .avg, .min, .max)");
    }
}
