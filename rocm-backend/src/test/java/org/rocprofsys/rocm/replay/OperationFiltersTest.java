package org.rocprofsys.rocm.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * upstream's per-domain operation filters ({@code ROCPROFSYS_ROCM_<DOMAIN>_OPERATIONS} keeps the
 * operations its regex finds, {@code _OPERATIONS_EXCLUDE} drops them), each set on its own on the
 * replayed "operations" session (two operations of every traced API domain and a copy each way,
 * delivered by the replay SDK to the real tool, decoded from the agent's rings, written as a
 * trace): the trace must be the unfiltered one less exactly the operations the filter leaves out
 * (a filter of one domain leaves every other domain as it was).
 */
class OperationFiltersTest {
    @TempDir
    Path dir;

    /** What the tool traces here: every API domain with a filter setting, and copies. */
    static final String DOMAINS = "hsa_api,hip_api,marker_api,rccl_api,rocdecode_api,rocjpeg_api,memory_copy";

    private static Map<String, Long> unfiltered;

    /**
     * One filter setting: {@code gone} are the trace's "category name" keys it removes (roctx
     * marks and ranges are named by their message, the filter matches the roctx function).
     */
    record Filter(String setting, String regex, Set<String> gone) {
        @Override
        public String toString() {
            return setting + "=" + regex;
        }
    }

    static Stream<Filter> filters() {
        return Stream.of(
                        both("HSA_CORE_API", "hsa_init", hsa("hsa_agent_get_info"), hsa("hsa_init")),
                        both(
                                "HSA_AMD_EXT_API",
                                "memory_pool",
                                hsa("hsa_amd_agents_allow_access"),
                                hsa("hsa_amd_memory_pool_allocate")),
                        both(
                                "HSA_IMAGE_EXT_API",
                                "_create$",
                                hsa("hsa_ext_image_destroy"),
                                hsa("hsa_ext_image_create")),
                        both(
                                "HSA_FINALIZE_EXT_API",
                                "finalize",
                                hsa("hsa_ext_program_create"),
                                hsa("hsa_ext_program_finalize")),
                        Stream.of(
                                new Filter(
                                        "ROCPROFSYS_ROCM_HIP_RUNTIME_API_OPERATIONS",
                                        "hipMalloc|hipFree",
                                        hip("hipMemcpy")),
                                new Filter(
                                        "ROCPROFSYS_ROCM_HIP_RUNTIME_API_OPERATIONS_EXCLUDE",
                                        "^hipM",
                                        hip("hipMalloc", "hipMemcpy"))),
                        both(
                                "HIP_COMPILER_API",
                                "Register",
                                hip("__hipPushCallConfiguration"),
                                hip("__hipRegisterFunction")),
                        both("MARKER_API", "roctxMarkA", "rocm_marker_api", "range_one", "mark_one"),
                        both(
                                "MEMORY_COPY",
                                "HOST_TO_DEVICE",
                                "rocm_memory_copy",
                                "MEMORY_COPY_DEVICE_TO_HOST",
                                "MEMORY_COPY_HOST_TO_DEVICE"),
                        both("RCCL_API", "UniqueId", "rocm_rccl_api", "ncclCommDestroy", "ncclGetUniqueId"),
                        both(
                                "ROCDECODE_API",
                                "Create",
                                "rocm_rocdecode_api",
                                "rocDecDestroyDecoder",
                                "rocDecCreateDecoder"),
                        both("ROCJPEG_API", "Create", "rocm_rocjpeg_api", "rocJpegDestroy", "rocJpegCreate"))
                .flatMap(f -> f);
    }

    /**
     * {@code ROCPROFSYS_ROCM_<domain>_OPERATIONS} and its {@code _EXCLUDE}, each set to {@code regex}:
     * the first removes {@code goneWhenKept}, the second {@code goneWhenExcluded}.
     */
    private static Stream<Filter> both(
            String domain, String regex, Set<String> goneWhenKept, Set<String> goneWhenExcluded) {
        String setting = "ROCPROFSYS_ROCM_" + domain + "_OPERATIONS";
        return Stream.of(
                new Filter(setting, regex, goneWhenKept), new Filter(setting + "_EXCLUDE", regex, goneWhenExcluded));
    }

    /** {@link #both} where each filter removes one slice of {@code category}. */
    private static Stream<Filter> both(
            String domain, String regex, String category, String goneWhenKept, String goneWhenExcluded) {
        return both(domain, regex, Set.of(category + " " + goneWhenKept), Set.of(category + " " + goneWhenExcluded));
    }

    private static Set<String> hsa(String... names) {
        return Stream.of(names).map(n -> "rocm_hsa_api " + n).collect(Collectors.toSet());
    }

    private static Set<String> hip(String... names) {
        return Stream.of(names).map(n -> "rocm_hip_api " + n).collect(Collectors.toSet());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("filters")
    void theFilterRemovesExactlyTheOperationsItLeavesOut(Filter f) throws Exception {
        Map<String, Long> all = unfiltered();
        assertTrue(all.keySet().containsAll(f.gone()), "the unfiltered trace has " + f.gone() + ": " + all);
        Map<String, Long> expected = new TreeMap<>(all);
        expected.keySet().removeAll(f.gone());
        assertEquals(expected, slices(Map.of(f.setting(), f.regex()), "filtered"));
    }

    /** The session without a filter, once: every operation of the scenario is in its trace. */
    private synchronized Map<String, Long> unfiltered() throws Exception {
        if (unfiltered == null) {
            Map<String, Long> all = slices(Map.of(), "unfiltered");
            assertEquals(2L, all.get("rocm_hip_api hipMemcpy"), "the copies' HIP calls: " + all);
            assertEquals(23, all.size(), "two operations of each of the 11 filtered domains, and hipMemcpy: " + all);
            unfiltered = all;
        }
        return unfiltered;
    }

    /** The trace's slices of the replayed session, counted by "category name". */
    private Map<String, Long> slices(Map<String, String> settings, String name) throws Exception {
        Map<String, String> env = new HashMap<>(settings);
        env.put("ROCPROFSYS_ROCM_DOMAINS", DOMAINS);
        ReplayRun run = ReplayRun.of("operations", env, Files.createDirectories(dir.resolve(name)));
        assertEquals(0, run.target().exitCode(), run.target().all());
        return run.trace().slices.stream()
                .filter(s -> s.category != null && s.category.startsWith("rocm_"))
                .collect(Collectors.groupingBy(s -> s.category + " " + s.name, TreeMap::new, Collectors.counting()));
    }
}
