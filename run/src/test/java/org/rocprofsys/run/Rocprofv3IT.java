package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.testkit.ReplaySdk;
import org.rocprofsys.tracetest.CsvRows;
import org.rocprofsys.tracetest.DecodedTrace;
import org.rocprofsys.tracetest.RocpdCounts;

/**
 * bin/rocprofv3 end to end on the replay rocprofiler-sdk (rocm-backend/src/test/c): the per-event
 * CSV files, the JSON, the stats and the summary count what the Perfetto trace and the rocpd
 * database of the same run hold (issue 39's acceptance); the kernel filter reaches every output;
 * bad command lines fail as rocprofv3's argparse does.
 */
class Rocprofv3IT extends DistributionTest {
    @TempDir
    static Path build;

    private static Path app;

    @BeforeAll
    static void replaySdk() throws Exception {
        app = ReplaySdk.build(REPO, build, List.of("-std=c11", "-Wall", "-D_GNU_SOURCE"));
    }

    private ProcessResult rocprofv3(String options, String... command) throws Exception {
        List<String> args = new ArrayList<>(List.of(argv(options)));
        args.add("--");
        args.add(app.toString());
        args.addAll(List.of(command));
        return tool("rocprofv3", Map.of("ROCPROFSYS_CI", "ON"), args.toArray(String[]::new));
    }

    /** {@link #rocprofv3}, asserted to have exited 0. */
    private ProcessResult succeeded(String options, String... command) throws Exception {
        ProcessResult r = rocprofv3(options, command);
        assertEquals(0, r.exitCode(), r::toString);
        return r;
    }

    private Path out(String name) {
        return cwd.resolve(name);
    }

    /**
     * The trace's device slices: kernels ({@code copies} false) or copies, on the HIP streams' tracks or,
     * where no HIP call named a stream, on the queues' and copy engines' tracks.
     */
    private static long slices(DecodedTrace t, String category, boolean copies) {
        String own = copies ? "rocm_memory_copy" : "rocm_kernel_dispatch";
        return t.slices.stream()
                .filter(s -> (category.equals(s.category) && s.name.startsWith("MEMORY_COPY_") == copies)
                        || own.equals(s.category))
                .count();
    }

    /** The trace's slices of one category. */
    private static long slices(DecodedTrace t, String category) {
        return t.slices.stream().filter(s -> category.equals(s.category)).count();
    }

    /**
     * A per-event CSV file's rows, asserted to be as many as the trace's slices of {@code category}
     * and each of {@code kind} (its first column).
     */
    private static List<List<String>> rowsOfKind(Path csv, DecodedTrace t, String category, String kind)
            throws IOException {
        List<List<String>> rows = CsvRows.of(csv);
        assertEquals(slices(t, category), rows.size());
        assertTrue(rows.stream().allMatch(row -> row.getFirst().equals(kind)), rows.toString());
        return rows;
    }

    private static long calls(Path statsCsv) throws IOException {
        return CsvRows.of(statsCsv).stream()
                .mapToLong(r -> Long.parseLong(r.get(1)))
                .sum();
    }

    /**
     * The transpose scenario with --sys-trace in every format at once: each CSV's rows equal the
     * trace's slices and rocpd's rows of the same kind, and the JSON's records and the stats' calls
     * equal the CSV's rows.
     */
    @Test
    void transposeCountsAgreeInEveryOutput() throws Exception {
        ProcessResult r = succeeded(
                "--sys-trace --stats -S -D --output-format csv json pftrace rocpd -d " + out("t") + " -o run",
                "transpose",
                "10");
        Path dir = out("t");
        DecodedTrace t = DecodedTrace.read(dir.resolve("run_results.pftrace"));
        Path db = dir.resolve("rocpd.db");
        long kernels = CsvRows.of(dir.resolve("run_kernel_trace.csv")).size();
        long copies = CsvRows.of(dir.resolve("run_memory_copy_trace.csv")).size();
        long hip = CsvRows.of(dir.resolve("run_hip_api_trace.csv")).size();
        assertEquals(24, kernels); // 20 transposes and 4 fills, as RocmReplayIT's trace has them
        assertEquals(4, copies);
        assertEquals(slices(t, "rocm_hip_stream", false), kernels);
        assertEquals(slices(t, "rocm_hip_stream", true), copies);
        assertEquals(slices(t, "rocm_hip_api"), hip);
        assertEquals(RocpdCounts.number(db, "SELECT count(*) FROM kernels"), kernels);
        assertEquals(RocpdCounts.number(db, "SELECT count(*) FROM memory_copies"), copies);
        assertEquals(RocpdCounts.number(db, "SELECT count(*) FROM regions WHERE category = 'rocm_hip_api'"), hip);
        // HIP rows only in the HIP file and its stats
        assertTrue(CsvRows.of(dir.resolve("run_hip_api_trace.csv")).stream()
                .allMatch(row -> row.getFirst().startsWith("HIP_")));
        assertEquals(kernels, calls(dir.resolve("run_kernel_stats.csv")));
        assertEquals(hip, calls(dir.resolve("run_hip_api_stats.csv")));
        assertEquals(copies, calls(dir.resolve("run_memory_copy_stats.csv")));
        assertEquals(kernels + copies + hip, calls(dir.resolve("run_domain_stats.csv")));
        JsonNode json =
                new ObjectMapper().readTree(dir.resolve("run_results.json").toFile());
        JsonNode records = json.get("rocprofiler-sdk-tool").get(0).get("buffer_records");
        assertEquals(kernels, records.get("kernel_dispatch").size());
        assertEquals(copies, records.get("memory_copy").size());
        assertEquals(hip, records.get("hip_api").size());
        assertEquals(3, CsvRows.of(dir.resolve("run_agent_info.csv")).size(), "the CPU and the two GPUs");
        assertTrue(r.stderr().contains("ROCPROFV3 KERNEL_DISPATCH SUMMARY:"), r::toString);
        assertTrue(r.stderr().contains("ROCPROFV3 SUMMARY:"), r::toString);
    }

    /** roctx: the marker file holds the trace's marker slices; the HIP file none of them. */
    @Test
    void roctxMarkersInTheirOwnFile() throws Exception {
        ProcessResult r = succeeded(
                "--marker-trace --hip-runtime-trace --stats --output-format csv pftrace rocpd -d " + out("m"), "roctx");
        Path dir = out("m");
        DecodedTrace t = DecodedTrace.read(only(dir, "_results.pftrace"));
        Path marker = only(dir, "_marker_api_trace.csv");
        long markers = CsvRows.of(marker).size();
        assertEquals(slices(t, "rocm_marker_api"), markers);
        assertTrue(markers >= 3, "two pushes and a mark at least: " + markers);
        assertTrue(CsvRows.of(marker).stream().anyMatch(row -> row.get(1).equals("roctxRangePush_HIP_Kernel")));
        assertTrue(CsvRows.of(only(dir, "_hip_api_trace.csv")).stream()
                .noneMatch(row -> row.get(1).startsWith("roctx")));
        assertEquals(markers, calls(only(dir, "_marker_api_stats.csv")));
        assertFalse(Files.readString(only(dir, "_hip_api_stats.csv")).contains("roctx"));
    }

    /** --kernel-include-regex: only the matching kernels, in the CSV, the JSON, the stats, the trace and rocpd. */
    @Test
    void kernelIncludeRegexReachesEveryOutput() throws Exception {
        ProcessResult r = succeeded(
                "--kernel-trace --stats --kernel-include-regex ^transpose --output-format csv json pftrace rocpd -d "
                        + out("k") + " -o k",
                "transpose",
                "10");
        Path dir = out("k");
        List<List<String>> kernels = CsvRows.of(dir.resolve("k_kernel_trace.csv"));
        assertEquals(20, kernels.size());
        assertTrue(kernels.stream().allMatch(row -> row.get(7).startsWith("transpose_a")));
        DecodedTrace t = DecodedTrace.read(dir.resolve("k_results.pftrace"));
        assertEquals(20, slices(t, "rocm_hip_stream", false));
        assertEquals(20, RocpdCounts.number(dir.resolve("rocpd.db"), "SELECT count(*) FROM kernels"));
        JsonNode json =
                new ObjectMapper().readTree(dir.resolve("k_results.json").toFile());
        assertEquals(
                20,
                json.get("rocprofiler-sdk-tool")
                        .get(0)
                        .get("buffer_records")
                        .get("kernel_dispatch")
                        .size());
        assertEquals(20, calls(dir.resolve("k_kernel_stats.csv")));
    }

    /** -T and the iteration range: the 2nd to 4th transpose, named without their arguments. */
    @Test
    void truncatedNamesAndIterationRange() throws Exception {
        ProcessResult r = succeeded(
                "--kernel-trace -T --kernel-iteration-range [2-4] --kernel-exclude-regex fill --output-format csv -d "
                        + out("r") + " -o r",
                "transpose",
                "10");
        List<List<String>> kernels = CsvRows.of(out("r").resolve("r_kernel_trace.csv"));
        assertEquals(3, kernels.size(), kernels.toString());
        assertTrue(kernels.stream().allMatch(row -> row.get(7).equals("transpose_a")), kernels.toString());
    }

    /** argparse's errors, exit 2, nothing run; an option not built yet says so once and the run goes on. */
    @Test
    void usageErrorsAndUnsupportedOptions() throws Exception {
        ProcessResult bad = rocprofv3("--kernel-trace --kernel-trase", "transpose", "1");
        assertEquals(2, bad.exitCode(), bad::toString);
        assertTrue(bad.stderr().contains("rocprofv3: error: unrecognized arguments: --kernel-trase"), bad::toString);
        ProcessResult units = rocprofv3("--kernel-trace -S --summary-units weeks", "transpose", "1");
        assertEquals(2, units.exitCode(), units::toString);
        assertTrue(units.stderr().contains("argument --summary-units: invalid choice: 'weeks'"), units::toString);
        ProcessResult pmc =
                succeeded("--kernel-trace --pmc SQ_WAVES --output-format csv -d " + out("p"), "transpose", "1");
        assertEquals(1, pmc.stderr().split("--pmc is not supported yet", -1).length - 1, pmc::toString);
        assertEquals(6, CsvRows.of(only(out("p"), "_kernel_trace.csv")).size()); // 2 transposes, 4 fills
    }

    /** --summary-output-file: the summary goes to the file, in the unit asked for. */
    @Test
    void summaryToAFile() throws Exception {
        Path file = out("summary.txt");
        ProcessResult r = succeeded(
                "--kernel-trace -S --summary-units usec --summary-output-file " + file + " --output-format csv -d "
                        + out("s"),
                "transpose",
                "2");
        String text = Files.readString(file);
        assertTrue(text.startsWith("ROCPROFV3 SUMMARY:\n"), text);
        assertTrue(text.contains("DURATION (usec)"), text);
        assertTrue(text.contains("transpose_a"), text);
        assertFalse(r.stderr().contains("ROCPROFV3 SUMMARY:"), r::toString);
    }

    /** Scratch memory: the allocation and the reclaim as the trace has them; the kernel's scratch size. */
    @Test
    void scratchMemory() throws Exception {
        ProcessResult r = succeeded(
                "--scratch-memory-trace --kernel-trace --stats --output-format csv pftrace -d " + out("sc") + " -o sc",
                "scratch");
        Path dir = out("sc");
        DecodedTrace t = DecodedTrace.read(dir.resolve("sc_results.pftrace"));
        List<List<String>> scratch =
                rowsOfKind(dir.resolve("sc_scratch_memory_trace.csv"), t, "rocm_scratch_memory", "SCRATCH_MEMORY");
        assertEquals(2, scratch.size(), scratch.toString());
        List<List<String>> kernels = CsvRows.of(dir.resolve("sc_kernel_trace.csv"));
        assertEquals(1, kernels.size());
        assertEquals("16384", kernels.getFirst().get(12), "Scratch_Size: " + kernels);
        assertEquals(2, calls(dir.resolve("sc_scratch_memory_stats.csv")));
    }

    /** RCCL: its calls in their own file, as many as the trace's and rocpd's; none in the HIP file. */
    @Test
    void rcclCallsInTheirOwnFile() throws Exception {
        ProcessResult r = succeeded(
                "--rccl-trace --hip-trace --stats --output-format csv pftrace rocpd -d " + out("rc") + " -o rc",
                "rccl");
        Path dir = out("rc");
        DecodedTrace t = DecodedTrace.read(dir.resolve("rc_results.pftrace"));
        List<List<String>> rccl = rowsOfKind(dir.resolve("rc_rccl_api_trace.csv"), t, "rocm_rccl_api", "RCCL_API");
        assertTrue(rccl.size() >= 3, rccl.toString());
        assertEquals(
                RocpdCounts.number(
                        dir.resolve("rocpd.db"), "SELECT count(*) FROM regions WHERE category = 'rocm_rccl_api'"),
                rccl.size());
        assertTrue(CsvRows.of(dir.resolve("rc_hip_api_trace.csv")).stream()
                .noneMatch(row -> row.get(1).startsWith("nccl")));
        assertEquals(rccl.size(), calls(dir.resolve("rc_rccl_api_stats.csv")));
    }

    /**
     * A program without GPU work (Debian's sh): its exit code, agent_info.csv with the CPU alone, a
     * JSON document with the process and no records, and no empty trace files.
     */
    @Test
    void programWithoutGpuWork() throws Exception {
        ProcessResult r = tool(
                "rocprofv3",
                Map.of("ROCPROFSYS_CI", "ON"),
                argv("--kernel-trace --output-format csv json -d " + out("n") + " -o n", "--", "sh", "-c", "exit 3"));
        assertEquals(3, r.exitCode(), r::toString);
        Path dir = out("n");
        List<List<String>> agents = CsvRows.of(dir.resolve("n_agent_info.csv"));
        assertEquals(1, agents.size(), agents.toString());
        assertEquals("CPU", agents.getFirst().get(2));
        assertFalse(Files.exists(dir.resolve("n_kernel_trace.csv")));
        JsonNode json =
                new ObjectMapper().readTree(dir.resolve("n_results.json").toFile());
        assertEquals(1, json.get("rocprofiler-sdk-tool").size());
        assertEquals(
                0, json.get("rocprofiler-sdk-tool").get(0).get("buffer_records").size());
    }

    /** The one file in {@code dir} whose name ends with {@code suffix} (the default prefix is the pid). */
    private static Path only(Path dir, String suffix) throws IOException {
        try (var files = Files.list(dir)) {
            List<Path> found = files.filter(p -> p.getFileName().toString().endsWith(suffix))
                    .toList();
            assertEquals(1, found.size(), suffix + " in " + dir + ": " + found);
            return found.getFirst();
        }
    }
}
