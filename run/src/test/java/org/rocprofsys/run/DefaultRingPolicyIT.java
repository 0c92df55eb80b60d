package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.perfetto.DecodedTrace;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;

/**
 * Default settings keep the data of a program that records far faster than the collector ingests:
 * one thread pushing 2 M regions as fast as it can (it once lost 3.9 M of its 4 M records to its
 * full 1 MiB ring and kept 1.3 % of its slices). The thread now waits for the collector while the
 * collector frees space, so nothing is dropped.
 */
class DefaultRingPolicyIT extends DistributionTest {
    @Override
    protected Path outputRoot() {
        return cwd.resolve("rocprof-sys-tests-output");
    }

    @Test
    void twoMillionRegionsUnderDefaultsLoseNothing() throws Exception {
        // -T -P with every ring setting left at its default
        ProcessResult r = tool(
                "rocprof-sys-run",
                environment("defaults-2m"),
                "-T",
                "-P",
                "--",
                examples().resolve("regions").toString(),
                "1000000");
        assertEquals(0, r.exitCode(), r::toString);
        assertFalse(r.stderr().contains("dropped"), r::toString);
        Path dir = outputRoot().resolve("defaults-2m");
        assertFalse(
                new ObjectMapper()
                        .readTree(dir.resolve("metadata.json").toFile())
                        .path("info")
                        .has("dropped_records"),
                "no drops in metadata.json");

        DecodedTrace trace = DecodedTrace.read(dir.resolve("perfetto-trace.proto"), false);
        // 1 M x (outer, inner) plus the main region
        assertEquals(2_000_001, trace.sliceBegins());
        assertEquals(2_000_001, trace.sliceEnds());

        var graph = new ObjectMapper()
                .readTree(dir.resolve("wall_clock.json").toFile())
                .get("timemory")
                .get("wall_clock")
                .get("ranks")
                .get(0)
                .get("graph");
        List<String> laps = new ArrayList<>();
        for (var e : graph) {
            String prefix = e.get("prefix").asText();
            laps.add(prefix.substring(prefix.indexOf(">>> ") + 4).replaceFirst("^ *\\|_", "") + " "
                    + e.get("entry").get("laps").asLong());
        }
        assertEquals(List.of("regions 1", "outer 1000000", "inner 1000000"), laps);
    }
}
