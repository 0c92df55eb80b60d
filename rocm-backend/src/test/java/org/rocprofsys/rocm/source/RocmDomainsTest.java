package org.rocprofsys.rocm.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;
import org.rocprofsys.rocm.decode.RocmDecodeOptions;
import org.rocprofsys.rocm.decode.RocmGpu;

class RocmDomainsTest {
    @TempDir
    Path dir;

    @Test
    void upstreamsDefaultsAndMetaDomains() {
        var s = RocmDomains.parse("hip_runtime_api,marker_api,kernel_dispatch,memory_copy,scratch_memory", false);
        assertEquals(
                List.of("hip_runtime_api", "marker_core_api", "kernel_dispatch", "memory_copy", "scratch_memory"),
                List.copyOf(s.traced()));
        assertEquals(
                List.of(
                        "hsa_core_api",
                        "hsa_amd_ext_api",
                        "hsa_image_ext_api",
                        "hsa_finalize_ext_api",
                        "hip_runtime_api",
                        "hip_compiler_api"),
                List.copyOf(RocmDomains.parse("hsa_api hip_api", false).traced()));
        assertEquals(
                Set.of("marker_core_api"), RocmDomains.parse("roctx", false).traced());
        assertEquals(
                Set.of("marker_core_api", "rccl_api"),
                RocmDomains.parse("ROCTX", true).traced());
        var s2 = RocmDomains.parse("kernel_dispatch,memory_allocation,kfd_event_page_fault,code_object", false);
        assertEquals(Set.of("kernel_dispatch"), s2.traced());
        assertEquals(Set.of("memory_allocation", "kfd_event_page_fault"), s2.notTraced());
        // the SDK's paired KFD records are traced (unified memory)
        assertEquals(
                List.of("kfd_page_migrate", "kfd_page_fault"),
                List.copyOf(RocmDomains.parse("kfd_page_fault kfd_page_migrate", false)
                        .traced()));
    }

    @Test
    void anUnknownValueIsRefusedInUpstreamsWords() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> RocmDomains.parse("hip_api,bogus", false));
        assertEquals("unsupported ROCPROFSYS_ROCM_DOMAINS value: bogus", e.getMessage());
    }

    private Settings settings(Map<String, String> env) throws Exception {
        Map<String, String> e = new HashMap<>(env);
        e.put("HOME", dir.toString());
        return new SettingsLoader(SettingsRegistry.standard(), e, dir).load();
    }

    @Test
    void theSourceNamesTheToolAndTheDomains() throws Exception {
        Path lib = Files.createFile(dir.resolve("librocprof-sys-rocm.so"));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream log = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        List<RocmTracing> s = RocmTracing.sources(settings(Map.of("ROCPROFSYS_USE_RCCLP", "ON")), lib, log);
        assertEquals(1, s.size());
        Map<String, String> env = s.getFirst().targetEnvironment(dir);
        assertEquals(lib.toString(), env.get("ROCP_TOOL_LIBRARIES"));
        assertEquals(
                "hip_runtime_api,marker_core_api,rccl_api,kernel_dispatch,memory_copy,scratch_memory",
                env.get("ROCPROFSYS_AGENT_ROCM_DOMAINS"));
        assertEquals("1", env.get("ROCPROFSYS_AGENT_ROCM_ARGS"));
        assertEquals("", bytes.toString(StandardCharsets.UTF_8));
        assertEquals(List.of(), RocmTracing.sources(settings(Map.of("ROCPROFSYS_USE_ROCM", "OFF")), lib, log));
        assertEquals(List.of(), RocmTracing.sources(settings(Map.of()), dir.resolve("absent.so"), log));
        assertTrue(bytes.toString(StandardCharsets.UTF_8).contains("absent.so is missing: ROCm is not traced"));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> RocmTracing.sources(
                        settings(Map.of("ROCPROFSYS_ROCM_DOMAINS", "kernel_dispatch,xyz")), lib, log));
        assertEquals("unsupported ROCPROFSYS_ROCM_DOMAINS value: xyz", e.getMessage());
    }

    @Test
    void operationFiltersWork() throws Exception {
        RocmDecodeOptions o = RocmTracing.options(settings(Map.of(
                "ROCPROFSYS_ROCM_HIP_RUNTIME_API_OPERATIONS", "hipMemcpy.*|hipLaunchKernel",
                "ROCPROFSYS_ROCM_HIP_RUNTIME_API_OPERATIONS_EXCLUDE", "Async$",
                "ROCPROFSYS_ROCM_MEMORY_COPY_OPERATIONS_EXCLUDE", "DEVICE_TO_HOST",
                "ROCPROFSYS_ROCM_GROUP_BY_QUEUE", "YES")));
        assertTrue(o.groupByQueue());
        assertTrue(o.keeps(RocmGpu.HIP_RUNTIME_API, "hipMemcpy"));
        assertTrue(o.keeps(RocmGpu.HIP_RUNTIME_API, "hipLaunchKernel"));
        assertTrue(!o.keeps(RocmGpu.HIP_RUNTIME_API, "hipMemcpyAsync"));
        assertTrue(!o.keeps(RocmGpu.HIP_RUNTIME_API, "hipMalloc"));
        assertTrue(o.keeps(RocmGpu.HSA_CORE_API, "hsa_init"));
        assertTrue(!o.keeps(RocmGpu.MEMORY_COPY, "MEMORY_COPY_DEVICE_TO_HOST"));
        assertTrue(o.keeps(RocmGpu.MEMORY_COPY, "MEMORY_COPY_HOST_TO_DEVICE"));
        assertTrue(!RocmTracing.options(settings(Map.of())).groupByQueue());
    }
}
