package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.tracetest.DecodedTrace;

/**
 * MPI under Open MPI and under MPICH (inventory 8.1, issue 37): {@code mpirun -n 2 rocprof-sys-run
 * -T -P -- ./mpi-traffic}, a program with known traffic (src/test/resources/mpi/mpi-traffic.c),
 * and upstream's launcher mode. Each rank's outputs end in {@code -<rank>}, never in a pid; its
 * trace holds each wrapped call as often as the program makes it and the comm_data tracks the
 * program's bytes exactly. Skipped, with the reason, where an implementation's mpirun or mpicc
 * is not installed (Debian: openmpi-bin + libopenmpi-dev, mpich + libmpich-dev), as is the run
 * of Debian's hpcc where that package is not installed.
 */
class MpiIT extends DistributionTest {
    private static final int RANKS = 2;
    /** upstream's mpi test fails on any of these: a pid where the rank belongs */
    private static final Pattern PID_SUFFIXED = Pattern.compile(
            "(perfetto-trace|trip_count|sampling_percent|sampling_cpu_clock|sampling_wall_clock|wall_clock)-[0-9][0-9]+\\.(json|txt|proto)");

    private static final Pattern RANK_LINE =
            Pattern.compile("\\[pid=(\\d+)] MPI rank: (\\d+) \\(\\2\\), MPI size: 2 \\(2\\)");

    // mpi-traffic.c's traffic per rank: 10 ping-pongs of 1000 bytes (rank 0 sends first, rank 1
    // answers), an Allreduce of 16 doubles, an Isend/Irecv of 256 ints, an MPI_Put of 64 ints
    private static final long SENT = 10 * 1000 + 16 * 8 + 256 * 4 + 64 * 4;
    private static final long RECEIVED = 10 * 1000 + 16 * 8 + 256 * 4;

    enum Implementation {
        OPENMPI("mpirun.openmpi", "mpicc.openmpi", List.of("--oversubscribe")),
        MPICH("mpirun.mpich", "mpicc.mpich", List.of());

        final String mpirun;
        final String mpicc;
        final List<String> options;

        Implementation(String mpirun, String mpicc, List<String> options) {
            this.mpirun = mpirun;
            this.mpicc = mpicc;
            this.options = options;
        }
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void eachRankProfilesItselfUnderMpirun(Implementation mpi) throws Exception {
        Path app = build(mpi);
        List<String> cmd = mpirun(mpi);
        cmd.addAll(List.of(DIST.resolve("bin/rocprof-sys-run").toString(), "-T", "-P", "--", app.toString()));
        ProcessResult r = run(cmd, mpi, "mpi-" + mpi.name().toLowerCase());
        assertRanksProfiled(r, outputRoot().resolve("mpi-" + mpi.name().toLowerCase()));
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void launcherModeInsertsTheProfilerBeforeTheProgram(Implementation mpi) throws Exception {
        Path app = build(mpi);
        List<String> cmd = new ArrayList<>(
                List.of(DIST.resolve("bin/rocprof-sys-run").toString(), "-l", "mpi-traffic", "-T", "-P", "--"));
        cmd.addAll(mpirun(mpi));
        cmd.add(app.toString());
        ProcessResult r = run(cmd, mpi, "mpi-launcher-" + mpi.name().toLowerCase());
        assertRanksProfiled(r, outputRoot().resolve("mpi-launcher-" + mpi.name().toLowerCase()));
    }

    /**
     * Upstream's filters (its doubled-prefix name for the reject list) and USE_MPIP off, which
     * leaves the five calls that give the rank.
     */
    @Test
    void theFiltersAndUseMpipChooseTheWrappedCalls() throws Exception {
        Path app = build(Implementation.OPENMPI);
        List<String> cmd = mpirun(Implementation.OPENMPI);
        cmd.addAll(List.of(DIST.resolve("bin/rocprof-sys-run").toString(), "-T", "--", app.toString()));
        ProcessResult permit = run(
                cmd,
                Implementation.OPENMPI,
                "mpi-permit",
                "ROCPROFSYS_MPIP_PERMIT_LIST",
                "MPI_Send,MPI_Recv MPI_Put",
                "ROCPROFSYS_ROCPROFSYS_MPIP_REJECT_LIST",
                "MPI_Recv");
        assertEquals(0, permit.exitCode(), permit::toString);
        assertEquals(
                Map.of(
                        "MPI_Init", 1,
                        "MPI_Comm_rank", 1,
                        "MPI_Comm_size", 1,
                        "MPI_Send", 10,
                        "MPI_Put", 1,
                        "MPI_Finalize", 1),
                mpiCalls(DecodedTrace.read(outputRoot().resolve("mpi-permit/perfetto-trace-0.proto"))));

        ProcessResult off = run(cmd, Implementation.OPENMPI, "mpi-off", "ROCPROFSYS_USE_MPIP", "false");
        assertEquals(0, off.exitCode(), off::toString);
        assertEquals(
                1,
                RANK_LINE
                        .matcher(off.stderr())
                        .results()
                        .filter(m -> m.group(2).equals("1"))
                        .count(),
                off::toString);
        assertEquals(
                Map.of("MPI_Init", 1, "MPI_Comm_rank", 1, "MPI_Comm_size", 1, "MPI_Finalize", 1),
                mpiCalls(DecodedTrace.read(outputRoot().resolve("mpi-off/perfetto-trace-1.proto"))));
    }

    private static Map<String, Integer> mpiCalls(DecodedTrace trace) {
        Map<String, Integer> calls = new TreeMap<>();
        for (DecodedTrace.Slice s : trace.slices) {
            if ("mpi".equals(s.category) && !s.instant) {
                calls.merge(s.name, 1, Integer::sum);
            }
        }
        return calls;
    }

    /**
     * A real MPI program from Debian (hpcc, the HPC Challenge benchmarks, linked to Open MPI) on a
     * small problem: it checks its own results (Success=1), and writes the same results as
     * without the profiler; each rank's profile holds its MPI calls.
     */
    @Test
    void aPackagedMpiProgramRunsUnchanged() throws Exception {
        Path hpcc = Path.of("/usr/bin/hpcc");
        assumeTrue(Files.isExecutable(hpcc), "hpcc (Debian package hpcc) is not installed: not tested");
        assumeTrue(onPath(Implementation.OPENMPI.mpirun), "Open MPI's mpirun is not installed: hpcc is not tested");
        // HPL on N=200 over a 1x2 grid: seconds, not minutes, on 2 CPUs
        String input = Files.readString(Path.of("/usr/share/doc/hpcc/examples/_hpccinf.txt"))
                .replaceFirst("(?m)^1000 +Ns", "200          Ns")
                .replaceFirst("(?m)^2 +Ps", "1            Ps");
        Files.writeString(cwd.resolve("hpccinf.txt"), input);
        List<String> bare = mpirun(Implementation.OPENMPI);
        bare.add(hpcc.toString());
        ProcessResult plain = run(bare, Implementation.OPENMPI, "hpcc-bare");
        assertEquals(0, plain.exitCode(), plain::toString);
        List<String> plainKeys = resultKeys(Files.readString(cwd.resolve("hpccoutf.txt")));
        Files.delete(cwd.resolve("hpccoutf.txt"));

        List<String> cmd = mpirun(Implementation.OPENMPI);
        cmd.addAll(List.of(DIST.resolve("bin/rocprof-sys-run").toString(), "-T", "-P", "--", hpcc.toString()));
        ProcessResult r = run(cmd, Implementation.OPENMPI, "hpcc");
        assertEquals(0, r.exitCode(), r::toString);
        String results = Files.readString(cwd.resolve("hpccoutf.txt"));
        assertTrue(results.contains("\nSuccess=1\n"), results);
        assertEquals(plainKeys, resultKeys(results));
        for (int rank = 0; rank < RANKS; rank++) {
            DecodedTrace trace = DecodedTrace.read(outputRoot().resolve("hpcc/perfetto-trace-" + rank + ".proto"));
            long allreduce = trace.slices.stream()
                    .filter(s -> "mpi".equals(s.category) && s.name.equals("MPI_Allreduce"))
                    .count();
            assertTrue(allreduce > 0, "rank " + rank + ": no MPI_Allreduce");
            assertTrue(sum(trace.counters().get("MPI Comm Send")) > 0, "rank " + rank);
        }
    }

    /** hpccoutf.txt's summary keys (its values are timings, which differ from run to run). */
    private static List<String> resultKeys(String out) {
        return out.lines()
                .filter(l -> l.matches("[A-Za-z_]+=.*"))
                .map(l -> l.substring(0, l.indexOf('=')))
                .toList();
    }

    private void assertRanksProfiled(ProcessResult r, Path out) throws IOException {
        assertEquals(0, r.exitCode(), r::toString);
        for (int rank = 0; rank < RANKS; rank++) {
            assertTrue(
                    r.stdout()
                            .contains("rank " + rank + " of 2: allreduce[1] ok, exchange from " + (1 - rank)
                                    + " ok, put from " + (1 - rank) + " ok"),
                    r::toString);
        }
        List<String> rankLines = RANK_LINE
                .matcher(r.stderr())
                .results()
                .map(m -> m.group(2))
                .sorted()
                .toList();
        assertEquals(List.of("0", "1"), rankLines, r::toString);

        List<String> files;
        try (Stream<Path> walk = Files.walk(out)) {
            files = walk.filter(Files::isRegularFile)
                    .map(p -> p.getFileName().toString())
                    .sorted()
                    .toList();
        }
        for (String f : files) {
            assertTrue(!PID_SUFFIXED.matcher(f).find(), "pid-suffixed output " + f + " in " + files);
        }
        for (int rank = 0; rank < RANKS; rank++) {
            assertTrue(files.contains("perfetto-trace-" + rank + ".proto"), files::toString);
            assertTrue(files.contains("wall_clock-" + rank + ".txt"), files::toString);

            DecodedTrace trace = DecodedTrace.read(out.resolve("perfetto-trace-" + rank + ".proto"));
            Map<String, Integer> calls = mpiCalls(trace);
            Map<String, Integer> expected = new TreeMap<>(Map.ofEntries(
                    Map.entry("MPI_Init", 1),
                    Map.entry("MPI_Comm_rank", 1),
                    Map.entry("MPI_Comm_size", 1),
                    Map.entry("MPI_Send", 10),
                    Map.entry("MPI_Recv", 10),
                    Map.entry("MPI_Allreduce", 1),
                    Map.entry("MPI_Irecv", 1),
                    Map.entry("MPI_Isend", 1),
                    Map.entry("MPI_Waitall", 1),
                    Map.entry("MPI_Win_create", 1),
                    Map.entry("MPI_Win_fence", 2),
                    Map.entry("MPI_Put", 1),
                    Map.entry("MPI_Win_free", 1),
                    Map.entry("MPI_Barrier", 1),
                    Map.entry("MPI_Finalize", 1)));
            assertEquals(expected, calls, "rank " + rank);

            Map<String, List<Double>> counters = trace.counters();
            assertEquals(SENT, sum(counters.get("MPI Comm Send")), "rank " + rank + " bytes sent");
            assertEquals(RECEIVED, sum(counters.get("MPI Comm Recv")), "rank " + rank + " bytes received");

            String wallClock = Files.readString(out.resolve("wall_clock-" + rank + ".txt"));
            // upstream's label prefix for a rank: |<rank>|<thread>>>>
            assertTrue(wallClock.contains("| |" + rank + "|0>>> |_MPI_Send "), wallClock);
        }
    }

    private static long sum(List<Double> values) {
        assertTrue(values != null, "no such counter track");
        return (long) values.stream().mapToDouble(Double::doubleValue).sum();
    }

    private List<String> mpirun(Implementation mpi) {
        List<String> cmd = new ArrayList<>(List.of(mpi.mpirun, "-n", Integer.toString(RANKS)));
        cmd.addAll(mpi.options);
        return cmd;
    }

    private Path build(Implementation mpi) throws IOException, InterruptedException {
        assumeTrue(onPath(mpi.mpirun), mpi.mpirun + " is not installed: " + mpi + " is not tested");
        assumeTrue(onPath(mpi.mpicc), mpi.mpicc + " is not installed: " + mpi + " is not tested");
        Path source = cwd.resolve("mpi-traffic.c");
        try (var in = MpiIT.class.getResourceAsStream("/mpi/mpi-traffic.c")) {
            Files.copy(in, source);
        }
        Path app = cwd.resolve("mpi-traffic");
        Command.of(mpi.mpicc, "-O2", "-o", app.toString(), source.toString())
                .in(cwd)
                .ok();
        return app;
    }

    private ProcessResult run(List<String> cmd, Implementation mpi, String name, String... extra) throws Exception {
        Map<String, String> env = new HashMap<>(environment(name, extra));
        // CI runs as root, which Open MPI refuses unless told
        env.put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        env.put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        env.put("HOME", cwd.toString());
        return Command.of(cmd)
                .in(cwd)
                .withoutInherited("ROCPROFSYS_")
                .env(env)
                .timeout(Duration.ofMinutes(4))
                .run();
    }

    private static boolean onPath(String program) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }
}
