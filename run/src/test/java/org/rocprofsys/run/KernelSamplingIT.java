package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;

/**
 * Kernel-mode CPU time is sampled as perf samples it (issue 36, item 1): {@code dd} copying
 * /dev/zero to /dev/null spends nearly all its CPU time in the kernel; beside {@code perf record}
 * on the same copy, our samples hold the kernel's share perf's hold, about as many samples for the
 * same work, and the kernel's functions by the names perf gives them ({@code [k] read_zero}).
 * Without the privilege to sample the kernel, the run says so once and why.
 */
class KernelSamplingIT extends DistributionTest {
    private static final String WARNING = "kernel-mode CPU time is not sampled";
    /** 10 GiB through dd's 1 MiB buffer: about half a second of kernel time here. */
    private static final String DD = "dd if=/dev/zero of=/dev/null bs=1M count=10000";

    private Map<String, Long> ourLeaves(ProcessResult r, String name) throws Exception {
        Path json = outputRoot().resolve(name + "/sampling_cpu_clock.json");
        assertTrue(Files.isRegularFile(json), r::toString);
        return ProfileGraph.leaves(ProfileGraph.graph(json, "sampling_cpu_clock"));
    }

    private static long total(Map<String, Long> leaves) {
        return leaves.values().stream().mapToLong(Long::longValue).sum();
    }

    private static long kernel(Map<String, Long> leaves) {
        return leaves.entrySet().stream()
                .filter(e -> e.getKey().startsWith("[k] "))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    @Test
    void ddsKernelTimeIsSampledAsPerfSamplesIt() throws Exception {
        ProcessResult r = CallStackSampling.orSkip(tool(
                "rocprof-sys-sample",
                environment("dd", "ROCPROFSYS_PROFILE", "ON", "ROCPROFSYS_SAMPLING_DELAY", "0"),
                argv("-f 1000 --", DD.split(" "))));
        assertEquals(0, r.exitCode(), r::toString);
        assumeTrue(!r.stderr().contains(WARNING), "kernel samples are not allowed here: " + r.stderr());
        Map<String, Long> ours = ourLeaves(r, "dd");

        List<PerfBeside.Leaf> perf = PerfBeside.leaves(cwd, 1000, DD);
        assumeTrue(perf.size() >= 50, "perf took too few samples: " + perf.size());
        Map<String, Long> perfKernel = perf.stream()
                .filter(PerfBeside.Leaf::kernel)
                .collect(Collectors.groupingBy(PerfBeside.Leaf::symbol, Collectors.counting()));
        double perfShare = (double) total(perfKernel) / perf.size();
        double ourShare = (double) kernel(ours) / total(ours);
        double countRatio = (double) total(ours) / perf.size();
        System.out.printf(
                "[KernelSamplingIT] dd: ours %d samples, %.1f %% in the kernel; perf %d samples, %.1f %% in the"
                        + " kernel; sample ratio ours/perf %.2f%n",
                total(ours), 100 * ourShare, perf.size(), 100 * perfShare, countRatio);
        String both = "ours " + ours + "\nperf's kernel leaves " + perfKernel + " of " + perf.size();
        assertTrue(perfShare > 0.8, "perf's kernel share " + perfShare + ": " + both);
        // the same work gives about as many samples of CPU time (user-only sampling had 7 % of perf's)
        assertTrue(countRatio > 0.6 && countRatio < 1.6, "sample ratio " + countRatio + ": " + both);
        assertTrue(ourShare >= perfShare - 0.05, "kernel share ours " + ourShare + " perf " + perfShare + ": " + both);
        // the kernel function where perf finds most of dd's time, named as perf report names it
        String top = perfKernel.entrySet().stream()
                .max(Map.Entry.comparingByValue())
                .orElseThrow()
                .getKey();
        assertTrue(
                ours.getOrDefault("[k] " + top, 0L) > 0.5 * perfKernel.get(top) * countRatio,
                "[k] " + top + ": " + both);
        // under the system call of the program that made it
        String tree = Files.readString(outputRoot().resolve("dd/sampling_cpu_clock.txt"));
        assertTrue(tree.contains("|_read ") || tree.contains("|___libc_read"), tree);
    }

    @Test
    void withoutThePrivilegeItSaysOnceWhyAndSamplesUserTime() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "setpriv is not installed");
        String paranoid = Files.readString(Path.of("/proc/sys/kernel/perf_event_paranoid"))
                .strip();
        assumeTrue(
                Integer.parseInt(paranoid) >= 2,
                "kernel samples are open to everyone here (paranoid " + paranoid + ")");
        // the profiler without CAP_PERFMON and CAP_SYS_ADMIN, as an ordinary user runs it
        Map<String, String> env = environment("dd-user", "ROCPROFSYS_PROFILE", "ON", "ROCPROFSYS_SAMPLING_DELAY", "0");
        ProcessResult r = CallStackSampling.orSkip(Command.of(argv(
                        "setpriv --bounding-set -sys_admin,-perfmon --",
                        DIST.resolve("bin/rocprof-sys-sample").toString(),
                        "-f",
                        "1000",
                        "--",
                        "sh",
                        "-c",
                        DD + " && gzip -c -1 " + DIST.resolve("lib/librocprof-sys.so") + " > /dev/null"))
                .in(cwd)
                .env(env)
                .run());
        assertEquals(0, r.exitCode(), r::toString);
        List<String> said = r.stderr().lines().filter(l -> l.contains(WARNING)).toList();
        assertEquals(1, said.size(), r::toString);
        assertTrue(said.getFirst().contains("perf_event_paranoid is " + paranoid), said::toString);
        assertTrue(said.getFirst().contains("CAP_PERFMON"), said::toString);
        Path json = outputRoot().resolve("dd-user/sampling_cpu_clock.json");
        if (Files.isRegularFile(json)) {
            Map<String, Long> leaves = ProfileGraph.leaves(ProfileGraph.graph(json, "sampling_cpu_clock"));
            assertEquals(0, kernel(leaves), leaves::toString);
        }
    }
}
