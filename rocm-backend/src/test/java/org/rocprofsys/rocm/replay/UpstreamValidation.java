package org.rocprofsys.rocm.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rocprofsys.tracetest.DecodedTrace;
import org.rocprofsys.tracetest.DecodedTrace.Slice;

/**
 * Upstream's tests/validate-perfetto-proto.py (inventory §4.5) on a trace decoded with the official
 * Perfetto schema ({@link DecodedTrace}): slices as trace_processor's {@code slice} table has them
 * (in time order, depth = nesting on the track by time, which trace_processor computes after
 * sorting), rows of other categories skipped, {@code count[name][depth]} flattened in first-seen
 * order and compared pairwise with the expected labels (as substrings), counts and depths; counter
 * tracks whose name contains a string must sum to more than 0.
 */
final class UpstreamValidation {
    private UpstreamValidation() {}

    record Row(String label, long count, int depth) {}

    /** Every slice with its trace_processor depth, in time order. */
    static List<Map.Entry<Slice, Integer>> slicesWithDepth(DecodedTrace t) {
        Map<Long, List<Slice>> byTrack = new LinkedHashMap<>();
        for (Slice s : t.slices) {
            byTrack.computeIfAbsent(s.trackUuid, k -> new ArrayList<>()).add(s);
        }
        List<Map.Entry<Slice, Integer>> out = new ArrayList<>();
        for (List<Slice> slices : byTrack.values()) {
            slices.sort(Comparator.<Slice>comparingLong(s -> s.beginNs).thenComparing(s -> -end(s)));
            Deque<Long> open = new ArrayDeque<>();
            for (Slice s : slices) {
                while (!open.isEmpty()
                        && open.peek() <= s.beginNs
                        && !(open.peek() == s.beginNs && end(s) == s.beginNs)) {
                    open.pop();
                }
                out.add(Map.entry(s, open.size()));
                if (!s.instant) {
                    open.push(end(s));
                }
            }
        }
        out.sort(Comparator.comparingLong(e -> e.getKey().beginNs));
        return out;
    }

    private static long end(Slice s) {
        return s.endNs < 0 ? s.beginNs : s.endNs;
    }

    /** The script's flattened {@code count[name][depth]} of the slices of {@code categories}. */
    static List<Row> rows(DecodedTrace t, Set<String> categories) {
        Map<String, Map<Integer, Long>> count = new LinkedHashMap<>();
        for (var e : slicesWithDepth(t)) {
            Slice s = e.getKey();
            if (!categories.isEmpty() && !categories.contains(s.category)) {
                continue;
            }
            count.computeIfAbsent(s.name, k -> new LinkedHashMap<>()).merge(e.getValue(), 1L, Long::sum);
        }
        List<Row> rows = new ArrayList<>();
        count.forEach((name, depths) -> depths.forEach((d, c) -> rows.add(new Row(name, c, d))));
        return rows;
    }

    /**
     * rocprof-sys-roctx-tests.cmake's validation of the roctx example (-m rocm_marker_api): its
     * labels, their counts and depths.
     */
    static void roctxExample(DecodedTrace trace) {
        validate(
                trace,
                Set.of("rocm_marker_api"),
                List.of(
                        "roctxMark_GPU_workload",
                        "roctxRangePush_run_profiling",
                        "roctxRangeStart_GPU_Compute",
                        "roctxRangeStart_GPU_Compute",
                        "roctxRangePush_HIP_Kernel",
                        "roctxRangePush_HIP_Kernel",
                        "roctxGetThreadId",
                        "roctxMark_RoctxProfilerPause_End",
                        "roctxMark_Thread_Start",
                        "roctxMark_End",
                        "roctxMark_Finished_GPU"),
                List.of(1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L),
                List.of(1, 1, 2, 0, 3, 1, 2, 2, 0, 0, 1));
    }

    /** Fails like the script does on the first mismatch of the first {@code labels.size()} rows. */
    static void validate(
            DecodedTrace t, Set<String> categories, List<String> labels, List<Long> counts, List<Integer> depths) {
        List<Row> rows = rows(t, categories);
        assertTrue(rows.size() >= labels.size(), "rows " + rows + " fewer than expected " + labels);
        for (int i = 0; i < labels.size(); i++) {
            Row r = rows.get(i);
            assertTrue(
                    r.label().contains(labels.get(i)),
                    "Mismatched prefix: " + r + " vs " + labels.get(i) + " in " + rows);
            assertEquals(counts.get(i), r.count(), "Mismatched count: " + r + " in " + rows);
            assertEquals(depths.get(i), r.depth(), "Mismatched depth: " + r + " in " + rows);
        }
    }

    /** {@code --counter-names}: the sum of the values of the counter tracks whose name contains {@code name}. */
    static double counterSum(DecodedTrace t, String name) {
        return t.counters().entrySet().stream()
                .filter(e -> e.getKey() != null && e.getKey().contains(name))
                .flatMap(e -> e.getValue().stream())
                .mapToDouble(Double::doubleValue)
                .sum();
    }
}
