package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.NativeCompiler;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.testkit.ResourceFiles;
import org.rocprofsys.tracetest.DecodedTrace;

/**
 * Kokkos Tools (issue 38, item 2; upstream's kokkos tests expect {@code |_[kokkos] <name>} with
 * {@code KOKKOSP_PREFIX=[kokkos]}): with {@code -I kokkosp} Kokkos loads librocprof-sys-kokkosp.so
 * and each callback is a region of category {@code kokkos} labelled {@code <prefix> <name>}.
 * {@code kokkos_kernels.cpp}, built against Debian's Kokkos (Trilinos, Serial back end), runs K
 * times three kernels, then a profile region around a section (holding a deep copy) and an event:
 * exact counts for two K, deep copies only with KOKKOSP_DEEP_COPY, labels cut by
 * KOKKOSP_NAME_LENGTH_MAX, and nothing without the setting.
 */
class KokkosIT extends DistributionTest {
    private static final Path KOKKOS_INCLUDE = Path.of("/usr/include/trilinos");

    private Path program() throws Exception {
        Assumptions.assumeTrue(
                Files.isRegularFile(KOKKOS_INCLUDE.resolve("Kokkos_Core.hpp")),
                "no Kokkos (Debian: libtrilinos-kokkos-dev)");
        Path source =
                ResourceFiles.copy(KokkosIT.class, "/threading/kokkos_kernels.cpp", cwd.resolve("kokkos_kernels.cpp"));
        Path out = cwd.resolve("kokkos_kernels");
        return NativeCompiler.cxx()
                .compile(
                        out,
                        List.of(
                                "-O1",
                                "-std=c++17",
                                "-I" + KOKKOS_INCLUDE,
                                "-o",
                                out.toString(),
                                source.toString(),
                                "-ltrilinos_kokkoscore",
                                "-ldl"));
    }

    private Map<String, Long> kokkosRegions(String name, String options, int kernels, String... settings)
            throws Exception {
        ProcessResult r = tool(
                "rocprof-sys-run",
                environment(name, concat(settings, "ROCPROFSYS_PROFILE", "ON", "ROCPROFSYS_TRACE", "ON")),
                argv(options + " --", program().toString(), Integer.toString(kernels)));
        assertEquals(0, r.exitCode(), r::toString);
        long sum = kernels * 499500L;
        assertTrue(r.stdout().contains("total=" + sum + " scanned=" + sum), r::toString);
        Map<String, Map<String, Long>> counts =
                ThreadTracks.counts(DecodedTrace.read(outputRoot().resolve(name + "/perfetto-trace.proto")), "kokkos");
        System.out.printf("[KokkosIT] %s: %s%n", name, counts);
        return counts.getOrDefault("kokkos_kernels", Map.of());
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** The labels a run of K iterations gets, less the views' allocations and initialisations. */
    private static Map<String, Long> kernelsAndRegions(String prefix, int kernels) {
        Map<String, Long> out = new TreeMap<>();
        for (String kernel : List.of("fill", "sum", "prefix")) {
            out.put(prefix + kernel, (long) kernels);
        }
        for (String once : List.of("outer", "section", "event")) {
            out.put(prefix + once, 1L);
        }
        return out;
    }

    private static Map<String, Long> without(Map<String, Long> counts, String... starts) {
        Map<String, Long> out = new TreeMap<>(counts);
        out.keySet().removeIf(k -> List.of(starts).stream().anyMatch(k::startsWith));
        return out;
    }

    @Test
    void eachKernelRegionAndSectionWithThePrefix() throws Exception {
        for (int kernels : List.of(3, 7)) {
            String name = "kokkos-" + kernels;
            Map<String, Long> c = kokkosRegions(name, "-I kokkosp", kernels, "ROCPROFSYS_KOKKOSP_PREFIX", "[kokkos]");
            assertEquals(
                    kernelsAndRegions("[kokkos] ", kernels),
                    without(c, "[kokkos] allocate", "[kokkos] deallocate", "[kokkos] Kokkos::View::initialization"),
                    c::toString);
            // the two views: each allocated, initialised and freed once
            for (String view : List.of("values", "copy")) {
                assertEquals(1L, c.get("[kokkos] allocate Host " + view), c::toString);
                assertEquals(1L, c.get("[kokkos] deallocate Host " + view), c::toString);
                assertEquals(1L, c.get("[kokkos] Kokkos::View::initialization [" + view + "]"), c::toString);
            }
            // the profile: upstream's "|_[kokkos] <name>" rows
            List<JsonNode> graph = ProfileGraph.graph(outputRoot().resolve(name + "/wall_clock.json"), "wall_clock");
            for (String kernel : List.of("fill", "sum", "prefix")) {
                assertEquals(
                        kernels,
                        graph.stream()
                                .filter(e -> ProfileGraph.label(e).equals("[kokkos] " + kernel))
                                .mapToLong(e -> e.get("entry").get("laps").asLong())
                                .sum(),
                        ProfileGraph.shown(graph));
            }
            assertTrue(Files.readString(outputRoot().resolve(name + "/wall_clock.txt"))
                    .contains("|_[kokkos] fill"));
        }
    }

    @Test
    void deepCopiesNameLengthAndNoPrefix() throws Exception {
        Map<String, Long> deep = kokkosRegions("kokkos-deep", "-I kokkosp", 2, "ROCPROFSYS_KOKKOSP_DEEP_COPY", "ON");
        assertEquals(1L, deep.get("deep_copy Host copy <- Host values"), deep::toString);
        assertEquals(2L, deep.get("fill"), deep::toString);

        Map<String, Long> cut = kokkosRegions(
                "kokkos-cut",
                "-I kokkosp",
                2,
                "ROCPROFSYS_KOKKOSP_PREFIX",
                "[kokkos]",
                "ROCPROFSYS_KOKKOSP_NAME_LENGTH_MAX",
                "12");
        assertEquals(2L, cut.get("[kokkos] fil"), cut::toString);
        assertTrue(cut.keySet().stream().allMatch(k -> k.length() <= 12), cut::toString);
        assertTrue(cut.keySet().stream().noneMatch(k -> k.contains("deep_copy")), cut::toString);

        assertEquals(Map.of(), kokkosRegions("kokkos-off", "-T", 2));
    }
}
