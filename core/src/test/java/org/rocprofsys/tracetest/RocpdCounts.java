package org.rocprofsys.tracetest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.rocprofsys.tracetest.DecodedTrace.Slice;

/**
 * The acceptance check of the rocpd output: every count the Perfetto trace of the same run has
 * equals the count plain SQL over the database's views gives. Shared with the end-to-end tests
 * and the CUDA fixtures (core's test jar).
 */
public final class RocpdCounts {
    private static final String SAMPLES_SLICE = "samples [rocprof-sys]";
    /** ROCm's stream tracks hold kernels and copies in one category; copies are named for their kind. */
    private static final String ROCM_STREAM = "rocm_hip_stream";
    /** The categories of the slices the kernels view has (besides ROCm's stream tracks' kernels). */
    private static final Set<String> KERNELS =
            Set.of("cuda_kernel_dispatch", "cuda_memory_set", "rocm_kernel_dispatch");
    /** The categories of the slices the memory_copies view has (besides ROCm's stream tracks' copies). */
    private static final Set<String> COPIES = Set.of("cuda_memory_copy", "rocm_page_migration", "rocm_memory_copy");
    /** Every category of device work. */
    private static final Set<String> DEVICE = Stream.of(KERNELS, COPIES, Set.of(ROCM_STREAM, "rocm_scratch_memory"))
            .flatMap(Set::stream)
            .collect(Collectors.toUnmodifiableSet());

    private static boolean rocmStreamCopy(DecodedTrace.Slice s) {
        return ROCM_STREAM.equals(s.category) && s.name.startsWith("MEMORY_COPY_");
    }
    /** The trace's migration throughput counter: the memory_copies rows' size over duration, no rows of its own. */
    private static final String MIGRATION_THROUGHPUT = "Unified Memory Migration Throughput";
    /** The trace keeps allocations as a counter of bytes in use; rocpd has the allocations. */
    private static final String ALLOCATED = "GPU Memory Allocated";

    private RocpdCounts() {}

    /** Rows of a two-column query as key -> count (the key as text). */
    public static Map<String, Long> query(Path db, String sql) throws SQLException {
        Map<String, Long> out = new TreeMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
                out.put(String.valueOf(r.getString(1)), r.getLong(2));
            }
        }
        return out;
    }

    /** One number from a query. */
    public static long number(Path db, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery(sql)) {
            return r.next() ? r.getLong(1) : 0;
        }
    }

    private static Map<String, Long> slices(DecodedTrace t, Predicate<Slice> which) {
        Map<String, Long> out = new TreeMap<>();
        for (Slice s : t.slices) {
            if (which.test(s)) {
                out.merge(s.category + "|" + s.name, 1L, Long::sum);
            }
        }
        return out;
    }

    /** Counter samples of the trace per track name. */
    private static Map<String, Long> counterSamples(DecodedTrace t, Predicate<String> names) {
        Map<String, Long> out = new TreeMap<>();
        t.packets.stream()
                .filter(p -> p.hasTrackEvent() && p.getTrackEvent().hasDoubleCounterValue())
                .map(p -> t.tracks
                        .get(p.getTrackEvent().getTrackUuid())
                        .descriptor()
                        .getName())
                .filter(names)
                .forEach(n -> out.merge(n, 1L, Long::sum));
        return out;
    }

    /**
     * The points the trace draws for the pmc_events rows, per track name: the value at the
     * kernel's begin, and 0 at its end when it has a duration (the track names the metric as
     * upstream does: an instance index in brackets becomes a suffix).
     */
    public static Map<String, Long> gpuCounterPoints(Path db) throws SQLException {
        Map<String, Long> out = new TreeMap<>();
        String sql = "SELECT pe.counter_name, a.type_index, pe.start, pe.end FROM pmc_events pe"
                + " JOIN rocpd_kernel_dispatch k ON k.event_id = pe.event_id"
                + " JOIN rocpd_info_agent a ON a.id = k.agent_id";
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
                String metric = r.getString(1).replaceAll("(.*)\\[([0-9]+)\\]", "$1_$2");
                String track = "GPU " + metric + " [" + r.getInt(2) + "]";
                out.merge(track, r.getLong(4) > r.getLong(3) ? 2L : 1L, Long::sum);
            }
        }
        return out;
    }

    /**
     * The rows of {@code view}, counted by category and name, are the trace's slices that
     * {@code which} picks; returns the counts.
     */
    private static Map<String, Long> assertViewHasSlices(Path db, String view, DecodedTrace t, Predicate<Slice> which)
            throws SQLException {
        Map<String, Long> rows =
                query(db, "SELECT category || '|' || name, COUNT(*) FROM " + view + " GROUP BY category, name");
        assertEquals(slices(t, which), rows, view);
        return rows;
    }

    /** Asserts every count; returns them (what was compared) for the caller's own checks. */
    public static Map<String, Long> assertSameCounts(DecodedTrace t, Path db) throws SQLException {
        Map<String, Long> compared = new HashMap<>();
        // slices of threads: regions (user, host, instrumented, API calls, NVTX, marks, the profiler's instants)
        Map<String, Long> regions = assertViewHasSlices(
                db, "regions", t, s -> !"sampling".equals(s.category) && !DEVICE.contains(s.category));
        // call-stack samples: the outer slice per sample, one slice per frame
        long samples = number(db, "SELECT COUNT(*) FROM samples");
        assertEquals(
                t.slices.stream()
                        .filter(s -> "sampling".equals(s.category) && SAMPLES_SLICE.equals(s.name))
                        .count(),
                samples,
                "samples");
        assertEquals(
                t.slices.stream()
                        .filter(s -> "sampling".equals(s.category) && !SAMPLES_SLICE.equals(s.name))
                        .count(),
                number(db, "SELECT COALESCE(SUM(json_array_length(call_stack)), 0) FROM samples"),
                "sampled frames");
        // device work
        Map<String, Long> kernels = assertViewHasSlices(
                db,
                "kernels",
                t,
                s -> KERNELS.contains(s.category) || (ROCM_STREAM.equals(s.category) && !rocmStreamCopy(s)));
        assertEquals(query(db, "SELECT name, total_calls FROM top_kernels"), byName(kernels), "top_kernels");
        // unified-memory migrations are memory copies of category rocm_page_migration
        Map<String, Long> copies =
                assertViewHasSlices(db, "memory_copies", t, s -> COPIES.contains(s.category) || rocmStreamCopy(s));
        long deviceNs = t.slices.stream()
                // scratch-memory events have no rocpd table (the SDK's schema has none either)
                .filter(s -> DEVICE.contains(s.category) && !"rocm_scratch_memory".equals(s.category))
                .mapToLong(s -> s.endNs - s.beginNs)
                .sum();
        assertEquals(deviceNs, number(db, "SELECT COALESCE(SUM(GpuTime), 0) FROM busy"), "busy");
        // counters: one rocpd_sample with its rocpd_pmc_event per value
        Map<String, Long> counters = query(
                db,
                "SELECT n.string, COUNT(*) FROM rocpd_sample s JOIN rocpd_track k ON k.id = s.track_id"
                        + " JOIN rocpd_string n ON n.id = k.name_id"
                        + " JOIN rocpd_pmc_event pe ON pe.event_id = s.event_id"
                        + " JOIN rocpd_info_pmc pi ON pi.id = pe.pmc_id AND pi.name = n.string"
                        + " WHERE k.tid IS NULL GROUP BY n.string");
        // GPU counters per kernel: pmc_events rows on the kernel dispatches; the trace's track
        // "GPU <metric> [<device>]" has the value at the kernel's begin and 0 at its end
        Map<String, Long> gpuCounters = gpuCounterPoints(db);
        Map<String, Long> both = new TreeMap<>(counters);
        gpuCounters.forEach((k, v) -> both.merge(k, v, Long::sum));
        assertEquals(
                counterSamples(t, n -> !n.startsWith(ALLOCATED) && !n.startsWith(MIGRATION_THROUGHPUT)),
                both,
                "counter samples");
        // and the counters_collection view has one row per dispatch and metric
        assertEquals(
                number(db, "SELECT COUNT(*) FROM pmc_events"),
                number(db, "SELECT COUNT(*) FROM counters_collection"),
                "counters_collection");
        long allocations = number(db, "SELECT COUNT(*) FROM memory_allocations");
        assertEquals(
                counterSamples(t, n -> n.startsWith(ALLOCATED)).values().stream()
                        .mapToLong(Long::longValue)
                        .sum(),
                allocations,
                "allocations");
        compared.put(
                "regions", regions.values().stream().mapToLong(Long::longValue).sum());
        compared.put("samples", samples);
        compared.put(
                "kernels", kernels.values().stream().mapToLong(Long::longValue).sum());
        compared.put(
                "memory_copies",
                copies.values().stream().mapToLong(Long::longValue).sum());
        compared.put(
                "counter_samples",
                counters.values().stream().mapToLong(Long::longValue).sum());
        compared.put("memory_allocations", allocations);
        compared.put("gpu_counters", number(db, "SELECT COUNT(*) FROM pmc_events"));
        return compared;
    }

    private static Map<String, Long> byName(Map<String, Long> categoryAndName) {
        Map<String, Long> out = new TreeMap<>();
        categoryAndName.forEach((k, v) -> out.merge(k.substring(k.indexOf('|') + 1), v, Long::sum));
        return out;
    }
}
