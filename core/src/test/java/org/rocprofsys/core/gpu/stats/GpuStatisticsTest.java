package org.rocprofsys.core.gpu.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.gpu.CopyKind;
import org.rocprofsys.core.gpu.CudaLikeGpu;
import org.rocprofsys.core.gpu.Dim3;
import org.rocprofsys.core.gpu.GpuApiCall;
import org.rocprofsys.core.gpu.GpuDevice;
import org.rocprofsys.core.gpu.GpuDomain;
import org.rocprofsys.core.gpu.GpuKernel;
import org.rocprofsys.core.gpu.GpuMemoryCopy;
import org.rocprofsys.core.gpu.GpuMemorySet;

class GpuStatisticsTest {
    private static GpuKernel kernel(String name, long begin, long end) {
        return new GpuKernel(
                1,
                0,
                7,
                1,
                begin,
                end,
                name,
                name,
                new Dim3(1, 1, 1),
                new Dim3(32, 1, 1),
                0,
                0,
                16,
                CudaLikeGpu.KERNEL,
                CudaLikeGpu.on(CudaLikeGpu.KERNEL, 0, 7));
    }

    private static GpuApiCall call(GpuDomain d, String f, long begin, long end) {
        return new GpuApiCall(1, 1, d, f, begin, end, 1, List.of());
    }

    private static GpuStatistics sample() {
        GpuStatistics s = new GpuStatistics("cuda_api_stats");
        s.accept(new GpuDevice(1, 0, 0, "NVIDIA", "H100", "GPU-0", 132, 1, "9.0"));
        s.accept(kernel("small", 0, 1000));
        s.accept(kernel("small", 5000, 8000));
        s.accept(kernel("big", 100, 1_000_100));
        s.accept(call(CudaLikeGpu.RUNTIME, "cudaLaunchKernel", 0, 500));
        s.accept(call(CudaLikeGpu.DRIVER, "cuLaunchKernel", 10, 400));
        s.accept(new GpuMemoryCopy(
                1,
                0,
                7,
                2,
                0,
                2_000_000,
                CopyKind.HOST_TO_DEVICE,
                4096,
                -1,
                0,
                CudaLikeGpu.COPY,
                CudaLikeGpu.on(CudaLikeGpu.COPY, 0, 7)));
        s.accept(new GpuMemoryCopy(
                1,
                0,
                7,
                3,
                0,
                1_000_000,
                CopyKind.DEVICE_TO_HOST,
                4096,
                0,
                -1,
                CudaLikeGpu.COPY,
                CudaLikeGpu.on(CudaLikeGpu.COPY, 0, 7)));
        s.accept(new GpuMemorySet(
                1, 0, 7, 4, 0, 20, 4096, 0, CudaLikeGpu.MEMSET, CudaLikeGpu.on(CudaLikeGpu.MEMSET, 0, 7)));
        return s;
    }

    @Test
    void tablesInUpstreamOrderWithRowsByTotalTime() {
        List<StatsTable> tables = sample().tables();
        assertEquals(
                List.of("kernel_stats", "cuda_api_stats", "memory_copy_stats", "domain_stats"),
                tables.stream().map(StatsTable::name).toList());
        assertEquals(
                List.of("big", "small"),
                tables.get(0).rows().stream().map(StatsTable.Row::name).toList());
        assertEquals(
                List.of("MEMORY_COPY", "KERNEL_DISPATCH", "CUDA_RUNTIME_API", "CUDA_DRIVER_API", "MEMORY_SET"),
                tables.get(3).rows().stream().map(StatsTable.Row::name).toList());
        StatsTable.Row dispatch = tables.get(3).rows().get(1);
        assertEquals(3, dispatch.calls());
        assertEquals(1_004_000, dispatch.totalNs());
    }

    @Test
    void csvAsRocprofv3WritesIt() {
        String csv = StatsCsv.render(sample().tables().get(0));
        // small: 1000 and 3000 ns -> mean 2000, sample stddev sqrt(2e6); big: one call, stddev 0
        assertEquals("""
                "Name","Calls","TotalDurationNs","AverageNs","Percentage","MinNs","MaxNs","StdDev"
                "big",1,1000000,1000000.000000,99.60,1000000,1000000,0.00000000e+00
                "small",2,4000,2000.000000,0.3984,1000,3000,1414.213562
                """, csv);
    }

    @Test
    void numberFormatsFollowUpstreamThresholds() {
        assertEquals("85.15", StatsCsv.percentage(85.1499));
        assertEquals("0.6470", StatsCsv.percentage(0.647));
        assertEquals("2.920e-03", StatsCsv.percentage(0.00292));
        assertEquals("65624351.500000", StatsCsv.real(65624351.5));
        assertEquals("0.00000000e+00", StatsCsv.real(0));
        assertEquals("5.00000000e-03", StatsCsv.real(0.005));
        StatsTable t = new StatsTable("kernel_stats");
        t.add("say \"hi\"", 5);
        assertEquals(
                "\"say \"\"hi\"\"\",1,5,5.000000,100.00,5,5,0.00000000e+00",
                StatsCsv.render(t).lines().toList().get(1));
    }

    @Test
    void jsonHasTheSameRows() throws Exception {
        JsonNode root =
                new ObjectMapper().readTree(StatsJson.render(sample().tables().get(2)));
        JsonNode rows = root.get("memory_copy_stats");
        assertEquals(2, rows.size());
        assertEquals("MEMORY_COPY_HOST_TO_DEVICE", rows.get(0).get("Name").asText());
        assertEquals(2_000_000, rows.get(0).get("TotalDurationNs").asLong());
        assertEquals(1, rows.get(1).get("Calls").asLong());
        assertEquals(100.0 / 3, rows.get(1).get("Percentage").asDouble(), 1e-9);
    }
}
