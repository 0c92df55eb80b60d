package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.Language;
import org.rocprofsys.testkit.NativeCompiler;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.testkit.ResourceFiles;
import org.rocprofsys.tracetest.DecodedTrace;

/**
 * OpenMP through OMPT (issue 38, item 1; upstream's {@code openmp-*} tests expect {@code |_ompt_}
 * entries with LLVM's libomp): with {@code -I ompt} the run puts librocprof-sys-ompt.so into
 * {@code OMP_TOOL_LIBRARIES} and libomp records its regions (category {@code ompt}) on each OpenMP
 * thread's track and in the profile. {@code omp_regions.c}, built with clang {@code -fopenmp},
 * runs N parallel regions of one reduction loop and one single construct on T threads: exact
 * counts for two (T, N). A real OpenMP program of Debian (gettext's msgmerge, whose fuzzy matching
 * is an OpenMP loop) is profiled on libomp through its GNU ABI with its output unchanged, and on
 * GCC's libgomp (no OMPT) with one warning saying so.
 */
class OmptIT extends DistributionTest {
    private Path program() throws Exception {
        Path source = ResourceFiles.copy(OmptIT.class, "/threading/omp_regions.c", cwd.resolve("omp_regions.c"));
        return new NativeCompiler(Language.C, "clang").compile(source, cwd.resolve("omp_regions"), "-O2", "-fopenmp");
    }

    private static Map<String, String> with(Map<String, String> env, String... extra) {
        Map<String, String> out = new HashMap<>(env);
        for (int i = 0; i + 1 < extra.length; i += 2) {
            out.put(extra[i], extra[i + 1]);
        }
        return out;
    }

    @Test
    void parallelRegionsTimesThreads() throws Exception {
        Path exe = program();
        for (int[] tn : new int[][] {{2, 5}, {4, 3}}) {
            int threads = tn[0];
            int regions = tn[1];
            String name = "omp-" + threads + "x" + regions;
            ProcessResult r = tool(
                    "rocprof-sys-run",
                    environment(
                            name,
                            "ROCPROFSYS_PROFILE",
                            "ON",
                            "ROCPROFSYS_TRACE",
                            "ON",
                            "OMP_NUM_THREADS",
                            Integer.toString(threads)),
                    argv("-I ompt --", exe.toString(), Integer.toString(regions)));
            assertEquals(0, r.exitCode(), r::toString);
            assertTrue(r.stdout().contains("threads=" + threads + " total=" + regions * 299995L), r::toString);
            assertTrue(!r.stderr().contains("libgomp"), r::toString);

            Map<String, Map<String, Long>> counts = ThreadTracks.counts(
                    DecodedTrace.read(outputRoot().resolve(name + "/perfetto-trace.proto")), "ompt");
            System.out.printf("[OmptIT] %d threads x %d regions: %s%n", threads, regions, counts);
            assertEquals(threads, counts.size(), counts::toString);
            Map<String, Long> main = counts.get("omp_regions");
            assertEquals(regions, main.get("ompt_parallel [parallelism=" + threads + "]"), counts::toString);
            long executors = 0;
            long others = 0;
            for (Map.Entry<String, Map<String, Long>> t : counts.entrySet()) {
                Map<String, Long> c = t.getValue();
                boolean worker = !t.getKey().equals("omp_regions");
                assertEquals(worker ? 1L : null, c.get("ompt_thread_worker"), counts::toString);
                assertEquals(regions, c.get("ompt_implicit_task"), counts::toString);
                assertEquals(regions, c.get("ompt_work_loop"), counts::toString);
                // per region: the loop's, the single's and the region's closing implicit barrier
                assertEquals(3L * regions, c.get("ompt_sync_region_barrier_implicit"), counts::toString);
                // the reduction's barrier, which libomp reports as the implementation's own
                assertEquals(regions, c.get("ompt_sync_region_barrier_implementation"), counts::toString);
                executors += c.getOrDefault("ompt_work_single_executor", 0L);
                others += c.getOrDefault("ompt_work_single_other", 0L);
            }
            assertEquals(regions, executors, counts::toString);
            assertEquals((long) regions * (threads - 1), others, counts::toString);

            // the profile: N x T implicit tasks, N parallel regions
            List<JsonNode> graph = ProfileGraph.graph(outputRoot().resolve(name + "/wall_clock.json"), "wall_clock");
            assertEquals((long) regions * threads, laps(graph, "ompt_implicit_task"), ProfileGraph.shown(graph));
            assertEquals(
                    regions, laps(graph, "ompt_parallel [parallelism=" + threads + "]"), ProfileGraph.shown(graph));
            assertEquals(threads - 1, laps(graph, "ompt_thread_worker"), ProfileGraph.shown(graph));
        }
    }

    @Test
    void withoutTheSettingNothingIsRecorded() throws Exception {
        ProcessResult r = tool(
                "rocprof-sys-run",
                environment("omp-off", "ROCPROFSYS_TRACE", "ON", "OMP_NUM_THREADS", "2"),
                argv("--", program().toString(), "2"));
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(
                Map.of(),
                ThreadTracks.counts(DecodedTrace.read(outputRoot().resolve("omp-off/perfetto-trace.proto")), "ompt"));
    }

    /**
     * The cost of an empty parallel region on 2 threads, recorded (4 regions a thread: parallel,
     * implicit task, implicit barrier, worker's task and barrier), against the same program under
     * the run without OMPT and bare; printed, no assertion on time.
     */
    @Test
    void costOfAnEmptyParallelRegion() throws Exception {
        Path exe = program();
        Map<String, String> threads = Map.of("OMP_NUM_THREADS", "2");
        ProcessResult on = tool(
                "rocprof-sys-run",
                with(
                        environment("omp-cost-on", "ROCPROFSYS_TRACE", "ON", "ROCPROFSYS_RING_BUFFER_SIZE_KB", "65536"),
                        "OMP_NUM_THREADS",
                        "2"),
                argv("-I ompt --", exe.toString(), "1", "bench"));
        ProcessResult off = tool(
                "rocprof-sys-run",
                with(environment("omp-cost-off", "ROCPROFSYS_TRACE", "ON"), "OMP_NUM_THREADS", "2"),
                argv("--", exe.toString(), "1", "bench"));
        ProcessResult bare = launch(exe, cwd, threads, "1", "bench");
        for (ProcessResult r : List.of(on, off, bare)) {
            assertEquals(0, r.exitCode(), r::toString);
        }
        System.out.printf(
                "[OmptIT] ns per empty parallel region on 2 threads: bare %s, under rocprof-sys-run without OMPT %s,"
                        + " recorded %s%n",
                regionNs(bare), regionNs(off), regionNs(on));
    }

    private static String regionNs(ProcessResult r) {
        return r.stdout()
                .lines()
                .filter(l -> l.startsWith("region_ns="))
                .map(l -> l.substring(10).split(" ")[0])
                .findFirst()
                .orElse("?");
    }

    private static long laps(List<JsonNode> graph, String label) {
        return graph.stream()
                .filter(e -> ProfileGraph.label(e).equals(label))
                .mapToLong(e -> e.get("entry").get("laps").asLong())
                .sum();
    }

    /** LLVM's libomp of Debian's libomp-dev, under the name GCC-built programs load. */
    private Path libompAsLibgomp() throws Exception {
        Optional<Path> libomp;
        try (Stream<Path> dirs = Files.list(Path.of("/usr/lib"))) {
            libomp = dirs.filter(d -> d.getFileName().toString().startsWith("llvm-"))
                    .map(d -> d.resolve("lib/libomp.so.5"))
                    .filter(Files::isRegularFile)
                    .findFirst();
        }
        Assumptions.assumeTrue(libomp.isPresent(), "no LLVM libomp (Debian: libomp-dev)");
        Path dir = Files.createDirectories(cwd.resolve("libomp"));
        Files.createSymbolicLink(dir.resolve("libgomp.so.1"), libomp.get());
        return dir;
    }

    @Test
    void debiansMsgmergeOnLibompAndOnLibgomp() throws Exception {
        Path msgmerge = Path.of("/usr/bin/msgmerge");
        Assumptions.assumeTrue(Files.isExecutable(msgmerge), "no msgmerge (Debian: gettext)");
        // 800 messages whose ids all changed a little: each is fuzzy-matched, msgmerge's OpenMP loop
        StringBuilder po =
                new StringBuilder("msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n");
        StringBuilder pot = new StringBuilder(po);
        String[] words = "alpha beta gamma delta epsilon zeta eta theta iota kappa".split(" ");
        for (int i = 0; i < 800; i++) {
            String id = words[i % 10] + " " + words[(i / 10) % 10] + " " + words[(i / 100) % 10] + " message " + i;
            po.append("\nmsgid \"")
                    .append(id)
                    .append("\"\nmsgstr \"X ")
                    .append(i)
                    .append("\"\n");
            pot.append("\nmsgid \"").append(id).append("!\"\nmsgstr \"\"\n");
        }
        Files.writeString(cwd.resolve("old.po"), po);
        Files.writeString(cwd.resolve("new.pot"), pot);
        ProcessResult bare =
                launch(msgmerge, cwd, Map.of("OMP_NUM_THREADS", "2"), "-q", "-o", "bare.po", "old.po", "new.pot");
        assertEquals(0, bare.exitCode(), bare::toString);

        Map<String, String> onLibomp = with(
                environment("msgmerge", "ROCPROFSYS_PROFILE", "ON", "ROCPROFSYS_TRACE", "ON"),
                "OMP_NUM_THREADS",
                "2",
                "LD_LIBRARY_PATH",
                libompAsLibgomp().toString());
        ProcessResult r = tool(
                "rocprof-sys-run",
                onLibomp,
                argv("-I ompt --", msgmerge.toString(), "-q", "-o", "traced.po", "old.po", "new.pot"));
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(Files.readString(cwd.resolve("bare.po")), Files.readString(cwd.resolve("traced.po")));
        Map<String, Map<String, Long>> counts =
                ThreadTracks.counts(DecodedTrace.read(outputRoot().resolve("msgmerge/perfetto-trace.proto")), "ompt");
        System.out.printf("[OmptIT] msgmerge on libomp: %s%n", counts);
        assertEquals(2, counts.size(), counts::toString);
        assertTrue(counts.get("msgmerge").getOrDefault("ompt_parallel [parallelism=2]", 0L) >= 1, counts::toString);
        for (Map<String, Long> c : counts.values()) {
            assertTrue(c.getOrDefault("ompt_work_loop", 0L) >= 1, counts::toString);
        }

        // GCC's libgomp: no OMPT, said once, nothing recorded, the output unchanged
        ProcessResult gomp = tool(
                "rocprof-sys-run",
                with(environment("msgmerge-gomp", "ROCPROFSYS_TRACE", "ON"), "OMP_NUM_THREADS", "2"),
                argv("-I ompt --", msgmerge.toString(), "-q", "-o", "gomp.po", "old.po", "new.pot"));
        assertEquals(0, gomp.exitCode(), gomp::toString);
        assertEquals(1, gomp.stderr().split("runtime is GCC's libgomp", -1).length - 1, gomp::toString);
        assertEquals(Files.readString(cwd.resolve("bare.po")), Files.readString(cwd.resolve("gomp.po")));
        assertEquals(
                Map.of(),
                ThreadTracks.counts(
                        DecodedTrace.read(outputRoot().resolve("msgmerge-gomp/perfetto-trace.proto")), "ompt"));
    }
}
