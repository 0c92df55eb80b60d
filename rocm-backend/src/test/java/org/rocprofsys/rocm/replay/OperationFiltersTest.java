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
                new Filter("ROCPROFSYS_ROCM_HSA_CORE_API_OPERATIONS", "hsa_init", hsa("hsa_agent_get_info")),
                new Filter("ROCPROFSYS_ROCM_HSA_CORE_API_OPERATIONS_EXCLUDE", "hsa_init", hsa("hsa_init")),
                new Filter(
                        "ROCPROFSYS_ROCM_HSA_AMD_EXT_API_OPERATIONS",
                        "memory_pool",
                        hsa("hsa_amd_agents_allow_access")),
                new Filter(
                        "ROCPROFSYS_ROCM_HSA_AMD_EXT_API_OPERATIONS_EXCLUDE",
                        "memory_pool",
                        hsa("hsa_amd_memory_pool_allocate")),
                new Filter("ROCPROFSYS_ROCM_HSA_IMAGE_EXT_API_OPERATIONS", "_create$", hsa("hsa_ext_image_destroy")),
                new Filter(
                        "ROCPROFSYS_ROCM_HSA_IMAGE_EXT_API_OPERATIONS_EXCLUDE",
                        "_create$",
                        hsa("hsa_ext_image_create")),
                new Filter(
                        "ROCPROFSYS_ROCM_HSA_FINALIZE_EXT_API_OPERATIONS", "finalize", hsa("hsa_ext_program_create")),
                new Filter(
                        "ROCPROFSYS_ROCM_HSA_FINALIZE_EXT_API_OPERATIONS_EXCLUDE",
                        "finalize",
                        hsa("hsa_ext_program_finalize")),
                new Filter("ROCPROFSYS_ROCM_HIP_RUNTIME_API_OPERATIONS", "hipMalloc|hipFree", hip("hipMemcpy")),
                new Filter(
                        "ROCPROFSYS_ROCM_HIP_RUNTIME_API_OPERATIONS_EXCLUDE", "^hipM", hip("hipMalloc", "hipMemcpy")),
                new Filter(
                        "ROCPROFSYS_ROCM_HIP_COMPILER_API_OPERATIONS", "Register", hip("__hipPushCallConfiguration")),
                new Filter(
                        "ROCPROFSYS_ROCM_HIP_COMPILER_API_OPERATIONS_EXCLUDE",
                        "Register",
                        hip("__hipRegisterFunction")),
                new Filter("ROCPROFSYS_ROCM_MARKER_API_OPERATIONS", "roctxMarkA", Set.of("rocm_marker_api range_one")),
                new Filter(
                        "ROCPROFSYS_ROCM_MARKER_API_OPERATIONS_EXCLUDE",
                        "roctxMarkA",
                        Set.of("rocm_marker_api mark_one")),
                new Filter(
                        "ROCPROFSYS_ROCM_MEMORY_COPY_OPERATIONS",
                        "HOST_TO_DEVICE",
                        Set.of("rocm_memory_copy MEMORY_COPY_DEVICE_TO_HOST")),
                new Filter(
                        "ROCPROFSYS_ROCM_MEMORY_COPY_OPERATIONS_EXCLUDE",
                        "HOST_TO_DEVICE",
                        Set.of("rocm_memory_copy MEMORY_COPY_HOST_TO_DEVICE")),
                new Filter("ROCPROFSYS_ROCM_RCCL_API_OPERATIONS", "UniqueId", Set.of("rocm_rccl_api ncclCommDestroy")),
                new Filter(
                        "ROCPROFSYS_ROCM_RCCL_API_OPERATIONS_EXCLUDE",
                        "UniqueId",
                        Set.of("rocm_rccl_api ncclGetUniqueId")),
                new Filter(
                        "ROCPROFSYS_ROCM_ROCDECODE_API_OPERATIONS",
                        "Create",
                        Set.of("rocm_rocdecode_api rocDecDestroyDecoder")),
                new Filter(
                        "ROCPROFSYS_ROCM_ROCDECODE_API_OPERATIONS_EXCLUDE",
                        "Create",
                        Set.of("rocm_rocdecode_api rocDecCreateDecoder")),
                new Filter(
                        "ROCPROFSYS_ROCM_ROCJPEG_API_OPERATIONS", "Create", Set.of("rocm_rocjpeg_api rocJpegDestroy")),
                new Filter(
                        "ROCPROFSYS_ROCM_ROCJPEG_API_OPERATIONS_EXCLUDE",
                        "Create",
                        Set.of("rocm_rocjpeg_api rocJpegCreate")));
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
