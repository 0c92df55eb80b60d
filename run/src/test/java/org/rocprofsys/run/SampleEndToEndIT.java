package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rocprofsys.run.ProfileGraph.graph;
import static org.rocprofsys.run.ProfileGraph.label;
import static org.rocprofsys.run.ProfileGraph.shown;
import static org.rocprofsys.run.ProfileGraph.sum;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.tracetest.DecodedTrace;

/**
 * rocprof-sys-sample on real programs: perf cpu-clock sampling, DWARF unwinding of optimized code
 * without frame pointers, and the sampled profiles. Skipped where perf_event_open is refused.
 */
class SampleEndToEndIT extends DistributionTest {
    private Map<String, String> env(String name) {
        return environment(name);
    }

    private ProcessResult sample(String name, String... args) throws Exception {
        return CallStackSampling.orSkip(tool("rocprof-sys-sample", cwd, env(name), args));
    }

    @Test
    void hotFunctionsGetTheirShareUnderMain() throws Exception {
        var r = sample("hot", argv("-P -T -f 1000 -w 0 --", example("hot-functions"), "60"));
        assertEquals(0, r.exitCode(), r::toString);
        Path json = cwd.resolve("out/hot/sampling_wall_clock.json");
        assertTrue(Files.isRegularFile(json), r::toString);
        List<JsonNode> g = graph(json, "sampling_wall_clock");
        double main = sum(g, "main", 0);
        double heavy = sum(g, "heavy", 1);
        double light = sum(g, "light", 1);
        String shown = g.stream()
                .map(e -> e.get("depth").asInt() + ":" + label(e) + "="
                        + e.get("entry").get("accum"))
                .toList()
                .toString();
        assertTrue(main > 0, "main at depth 0: " + shown);
        double hot = heavy + light;
        // most of main's samples are in the two functions (the rest: startup, the loop itself)
        assertTrue(hot > 0.8 * main, shown);
        double heavyShare = heavy / hot;
        assertTrue(heavyShare > 0.55 && heavyShare < 0.85, "heavy's share " + heavyShare + ": " + shown);
        assertTrue(Files.readString(cwd.resolve("out/hot/sampling_percent.txt")).contains("heavy"), r::toString);

        // the trace: the main thread's samples on "Thread 0 (S) <tid>", main -> heavy / light nested
        DecodedTrace trace = DecodedTrace.read(cwd.resolve("out/hot/perfetto-trace.proto"));
        List<String> slices =
                CallStackSampling.mainThreadSamples(trace).distinct().sorted().toList();
        assertTrue(
                slices.containsAll(List.of("0:samples [rocprof-sys]", "1:main", "2:heavy", "2:light")),
                slices::toString);
        // main, heavy and light only where they nest; other frames may come by chance: on the
        // 16-core GPU host, three runs in eight also had a sample outside main
        // (ld-linux-x86-64.so.2+0x1f5a0 at depth 1, or a strcpy at depth 6) or in two unnamed
        // stubs under main (func_0x5780, func_0x5670; most likely the PLT while a call is bound)
        assertEquals(
                List.of("1:main", "2:heavy", "2:light"),
                slices.stream()
                        .filter(x -> x.matches("\\d+:(main|heavy|light)"))
                        .toList(),
                slices::toString);
    }

    @Test
    void lsWritesTheThreeSamplingProfiles() throws Exception {
        // -R over a big tree so that even a fast machine spends a few hundred samples in ls
        var r = sample("ls", "-P", "-f", "1000", "-w", "0", "--", "ls", "-la", "-R", "/usr/lib");
        assertEquals(0, r.exitCode(), r::toString);
        CallStackSampling.assertSamplingFiles(cwd.resolve("out/ls"), r, "txt", "json");
        assertTrue(r.stderr().contains("[sampling_wall_clock]> Outputting"), r::toString);
    }
}
