package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.NativeCompiler;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.tracetest.DecodedTrace;
import org.rocprofsys.tracetest.RocpdCounts;

/**
 * Two stripped libraries with a function at the same offset stay apart (issue 36, item 2): a
 * function known only from its FDE is named with its library ({@code libA.so!func_0x1100}) in
 * the profiles, the trace and rocpd. The program spends a known share of its work in each, one
 * unit in libA for three in libB, and our shares are perf's, beside it on the same work.
 */
class StrippedLibrariesIT extends DistributionTest {
    /** The same code in both libraries, so that spin lies at the same offset in each. */
    private static final String LIBRARY = """
            static __attribute__((noinline)) unsigned long spin(unsigned long n) {
                unsigned long x = 88172645463325252UL;
                for (unsigned long i = 0; i < n; i++) { /* xorshift: no store, no call */
                    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
                }
                return x;
            }
            unsigned long WORK(unsigned long n) { return spin(n); }
            """;

    private static final String PROGRAM = """
            #include <stdio.h>
            #include <stdlib.h>
            unsigned long work_a(unsigned long n);
            unsigned long work_b(unsigned long n);
            /* one unit of work in libA for three in libB, interleaved */
            int main(int argc, char **argv) {
                unsigned long unit = strtoul(argv[1], 0, 10), rounds = strtoul(argv[2], 0, 10), sum = 0;
                for (unsigned long r = 0; r < rounds; r++) {
                    sum += work_a(unit);
                    sum += work_b(3 * unit);
                }
                printf("%lu\\n", sum);
                return 0;
            }
            """;
    /** About 0.4 s of CPU time here: 320 M xorshift rounds. */
    private static final List<String> ARGS = List.of("1000000", "80");

    private Path build() throws Exception {
        Path work = Files.writeString(cwd.resolve("work.c"), LIBRARY);
        for (String lib : List.of("A", "B")) {
            Path so = cwd.resolve("lib" + lib + ".so");
            NativeCompiler.c().compile(work, so, "-O2", "-fPIC", "-shared", "-DWORK=work_" + lib.toLowerCase());
            Command.of("strip", so.toString()).ok();
        }
        Path main = Files.writeString(cwd.resolve("main.c"), PROGRAM);
        return NativeCompiler.c()
                .compile(
                        cwd.resolve("twolibs"),
                        List.of("-O2", "-o", "twolibs", main.toString(), "-L.", "-lA", "-lB", "-Wl,-rpath,$ORIGIN"));
    }

    /** The start of the function holding most of libA's samples: spin, known only from its FDE. */
    private static String spinName(String lib, Map<String, Long> leaves) {
        return leaves.entrySet().stream()
                .filter(e -> e.getKey().startsWith(lib + "!func_0x"))
                .max(Map.Entry.comparingByValue())
                .map(Map.Entry::getKey)
                .orElseThrow(() -> new AssertionError("no " + lib + "!func_0x... in " + leaves));
    }

    @Test
    void twoStrippedLibrariesKeepTheirSamplesApart() throws Exception {
        Path program = build();
        ProcessResult r = CallStackSampling.orSkip(tool(
                "rocprof-sys-sample",
                environment(
                        "twolibs",
                        "ROCPROFSYS_PROFILE",
                        "ON",
                        "ROCPROFSYS_TRACE",
                        "ON",
                        "ROCPROFSYS_USE_ROCPD",
                        "ON",
                        "ROCPROFSYS_SAMPLING_DELAY",
                        "0"),
                argv("-f 1000 --", program.toString(), ARGS.get(0), ARGS.get(1))));
        assertEquals(0, r.exitCode(), r::toString);
        Path dir = outputRoot().resolve("twolibs");
        Map<String, Long> ours =
                ProfileGraph.leaves(ProfileGraph.graph(dir.resolve("sampling_cpu_clock.json"), "sampling_cpu_clock"));
        String a = spinName("libA.so", ours);
        String b = spinName("libB.so", ours);
        // the same offset in each library, two entries
        assertEquals(a.substring(a.indexOf('!')), b.substring(b.indexOf('!')), ours::toString);
        long inA = ours.get(a);
        long inB = ours.get(b);
        double ourShare = (double) inA / (inA + inB);

        String shell = program + " " + String.join(" ", ARGS);
        List<PerfBeside.Leaf> perf = PerfBeside.leaves(cwd, 1000, shell);
        Map<String, Long> perfByDso = perf.stream()
                .collect(Collectors.groupingBy(
                        l -> Path.of(l.dso()).getFileName().toString(), Collectors.counting()));
        long perfA = perfByDso.getOrDefault("libA.so", 0L);
        long perfB = perfByDso.getOrDefault("libB.so", 0L);
        double perfShare = (double) perfA / (perfA + perfB);
        System.out.printf(
                "[StrippedLibrariesIT] ours: %s %d samples, %s %d (libA's share %.3f); perf: libA.so %d, libB.so %d"
                        + " (libA's share %.3f)%n",
                a, inA, b, inB, ourShare, perfA, perfB, perfShare);
        String both = "ours " + ours + "\nperf " + perfByDso;
        assertTrue(inA + inB >= 100, "too few samples: " + both);
        // one unit of work in four: the share is 0.25 give or take the samples' chance (sd 0.02 at 400)
        assertTrue(ourShare > 0.15 && ourShare < 0.35, "libA's share " + ourShare + ": " + both);
        assertTrue(Math.abs(ourShare - perfShare) < 0.1, "ours " + ourShare + " perf " + perfShare + ": " + both);

        // the trace's sampled stacks and rocpd's call stacks name them the same way
        List<String> slices = CallStackSampling.mainThreadSamples(
                        DecodedTrace.read(dir.resolve("perfetto-trace.proto")))
                .map(s -> s.substring(s.indexOf(':') + 1))
                .distinct()
                .toList();
        assertTrue(slices.containsAll(List.of(a, b)), slices::toString);
        Path db = dir.resolve("rocpd.db");
        for (String name : List.of(a, b)) {
            long n = RocpdCounts.number(db, "SELECT COUNT(*) FROM samples WHERE call_stack LIKE '%\"" + name + "\"%'");
            assertTrue(
                    n >= ours.get(name), name + " in " + n + " rocpd samples, " + ours.get(name) + " in the profile");
        }
    }
}
