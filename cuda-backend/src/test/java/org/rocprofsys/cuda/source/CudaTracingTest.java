package org.rocprofsys.cuda.source;

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
import org.rocprofsys.core.spi.RecordDecoder;
import org.rocprofsys.cuda.decode.CudaGpu;

/** The run's CUDA source: its settings, the target's environment, the library it names. */
class CudaTracingTest {
    @TempDir
    Path dir;

    private Settings settings(String... pairs) throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", dir.toString());
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        return new SettingsLoader(SettingsRegistry.standard(), env, dir).load();
    }

    private Path library() throws Exception {
        return Files.writeString(dir.resolve("librocprof-sys-cuda.so"), "");
    }

    @Test
    void defaultsTraceTheRuntimeApiAndDeviceWork() throws Exception {
        List<CudaTracing> sources = CudaTracing.sources(settings(), library(), System.err);
        assertEquals(1, sources.size());
        Map<String, String> env = sources.getFirst().targetEnvironment(dir);
        assertEquals(library().toString(), env.get("CUDA_INJECTION64_PATH"));
        assertEquals(library().toString(), env.get("NVTX_INJECTION64_PATH"));
        assertEquals(
                "cuda_runtime_api,kernel_dispatch,memory_copy,memory_set,memory_allocation,nvtx",
                env.get("ROCPROFSYS_AGENT_CUDA_DOMAINS"));
        assertTrue(sources.getFirst() instanceof RecordDecoder);
    }

    @Test
    void cudaEventsReachTheInjectionLibraryEvenWithoutDomains() throws Exception {
        List<CudaTracing> sources = CudaTracing.sources(
                settings(
                        "ROCPROFSYS_CUDA_EVENTS",
                        "smsp__inst_executed.sum, dram__bytes_read.sum;smsp__inst_executed.sum",
                        "ROCPROFSYS_CUDA_DOMAINS",
                        ""),
                library(),
                System.err);
        assertEquals(1, sources.size());
        Map<String, String> env = sources.getFirst().targetEnvironment(dir);
        assertEquals("smsp__inst_executed.sum,dram__bytes_read.sum", env.get("ROCPROFSYS_AGENT_CUDA_EVENTS"));
        assertEquals("", env.get("ROCPROFSYS_AGENT_CUDA_DOMAINS"));
        Map<String, String> plain = CudaTracing.sources(settings(), library(), System.err)
                .getFirst()
                .targetEnvironment(dir);
        assertTrue(!plain.containsKey("ROCPROFSYS_AGENT_CUDA_EVENTS"), plain.toString());
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> CudaTracing.sources(settings("ROCPROFSYS_CUDA_EVENTS", "a$b"), library(), System.err));
        assertEquals("invalid ROCPROFSYS_CUDA_EVENTS metric: a$b", e.getMessage());
    }

    @Test
    void offOrNoDomainsMeansNoSource() throws Exception {
        assertEquals(List.of(), CudaTracing.sources(settings("ROCPROFSYS_USE_CUDA", "false"), library(), System.err));
        assertEquals(List.of(), CudaTracing.sources(settings("ROCPROFSYS_CUDA_DOMAINS", ""), library(), System.err));
    }

    @Test
    void withoutNvtxTheNvtxInjectionIsNotSet() throws Exception {
        Map<String, String> env = CudaTracing.sources(
                        settings("ROCPROFSYS_CUDA_DOMAINS", "kernel_dispatch cuda_driver_api"), library(), System.err)
                .getFirst()
                .targetEnvironment(dir);
        assertEquals("cuda_driver_api,kernel_dispatch", env.get("ROCPROFSYS_AGENT_CUDA_DOMAINS"));
        assertTrue(!env.containsKey("NVTX_INJECTION64_PATH"));
    }

    @Test
    void unifiedMemoryProfilingTurnsCuptisCountersOnByItself() throws Exception {
        Map<String, String> env = CudaTracing.sources(
                        settings(
                                "ROCPROFSYS_USE_UNIFIED_MEMORY_PROFILING",
                                "ON",
                                "ROCPROFSYS_CUDA_DOMAINS",
                                "kernel_dispatch"),
                        library(),
                        System.err)
                .getFirst()
                .targetEnvironment(dir);
        assertEquals("kernel_dispatch,unified_memory", env.get("ROCPROFSYS_AGENT_CUDA_DOMAINS"));
        env = CudaTracing.sources(
                        settings("ROCPROFSYS_USE_UNIFIED_MEMORY_PROFILING", "ON", "ROCPROFSYS_CUDA_DOMAINS", ""),
                        library(),
                        System.err)
                .getFirst()
                .targetEnvironment(dir);
        assertEquals("unified_memory", env.get("ROCPROFSYS_AGENT_CUDA_DOMAINS"));
    }

    @Test
    void anUnknownDomainIsRefusedInUpstreamsWords() throws Exception {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> CudaTracing.sources(
                        settings("ROCPROFSYS_CUDA_DOMAINS", "kernel_dispatch,bogus"), library(), System.err));
        assertEquals("unsupported ROCPROFSYS_CUDA_DOMAINS value: bogus", e.getMessage());
        assertEquals(Set.of(CudaGpu.NVTX, CudaGpu.MEMORY_COPY), CudaDomains.parse("nvtx;MEMORY_COPY"));
    }

    @Test
    void aMissingLibraryIsOneNoticeAndNoSource() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        assertEquals(
                List.of(),
                CudaTracing.sources(
                        settings(), dir.resolve("absent.so"), new PrintStream(log, true, StandardCharsets.UTF_8)));
        assertEquals(
                "[rocprof-sys][cuda] " + dir.resolve("absent.so") + " is missing: CUDA is not traced\n",
                log.toString(StandardCharsets.UTF_8));
    }
}
