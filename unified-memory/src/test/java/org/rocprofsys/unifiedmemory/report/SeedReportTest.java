package org.rocprofsys.unifiedmemory.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.gpu.GpuDevice;
import org.rocprofsys.core.gpu.GpuEvent;
import org.rocprofsys.core.gpu.GpuPageFault;
import org.rocprofsys.core.gpu.GpuPageFault.FaultSide;
import org.rocprofsys.core.gpu.GpuPageMigration;
import org.rocprofsys.core.gpu.MigrationDirection;
import org.rocprofsys.core.gpu.MigrationTrigger;

/**
 * Seed 000's sample report, reproduced from events with the same figures: 36 host-to-device
 * migrations of 432865280 bytes in 827859200 ns (2 MiB to 173.4 MiB), 32 device-to-host of
 * 65011712 bytes in 39135300 ns (4 KiB to 2 MiB), 33 page faults, triggers 30 GPU faults, 2 CPU
 * faults and 1 prefetch.
 */
class SeedReportTest {
    private static final int PID = 12345;
    private static final int DEVICE = 2;
    private static final long MIB = 1 << 20;

    /** The seed's text with its lost alignment: compared with runs of spaces made one. */
    private static final String SEED_TEXT = """
            ==12345== Unified Memory profiling result:
            Device "gfx950 (via AMD EPYC 9655 96-Core Processor) (2)"
            Count Avg Size Min Size Max Size Total Size Total Time Migration Throughput Name
            36 11.4670MB 2.0000MB 173.4062MB 412.8125MB 827.8592ms 0.52 GB/s Host To Device
            32 1.9375MB 4.0000KB 2.0000MB 62.0000MB 39.1353ms 1.66 GB/s Device To Host
            Total Page Faults: 33
            Migration Triggers:
            GPU page fault: 30
            CPU page fault: 2
            Prefetch: 1
            """;

    static List<GpuEvent> seedEvents() {
        List<GpuEvent> events = new ArrayList<>();
        events.add(new GpuDevice(
                PID, 0, DEVICE, "AMD", "gfx950 (via AMD EPYC 9655 96-Core Processor)", "", 0, 0, "gfx950"));
        long t = 1_000_000;
        // host to device: a prefetch, then 35 migrations of 30 GPU faults (groups 1..30, 1..5 twice)
        long[] h2dBytes = new long[36];
        Arrays.fill(h2dBytes, 2 * MIB);
        h2dBytes[0] = 181829632L;
        h2dBytes[1] = 2 * MIB + 177635328L;
        for (int i = 0; i < 36; i++) {
            long duration = i < 35 ? 23_000_000 : 22_859_200;
            MigrationTrigger trigger = i == 0 ? MigrationTrigger.PREFETCH : MigrationTrigger.GPU_PAGE_FAULT;
            long group = i == 0 ? 0 : 1 + (i - 1) % 30;
            events.add(migration(t, duration, MigrationDirection.HOST_TO_DEVICE, h2dBytes[i], trigger, group));
            t += duration + 1000;
        }
        // device to host: two CPU faults, 30 evictions-free GPU-fault migrations of the same groups
        for (int i = 0; i < 32; i++) {
            long bytes = i == 0 ? 4096 : i == 1 ? 2 * MIB - 4096 : 2 * MIB;
            long duration = i < 31 ? 1_200_000 : 1_935_300;
            MigrationTrigger trigger = i < 2 ? MigrationTrigger.CPU_PAGE_FAULT : MigrationTrigger.GPU_PAGE_FAULT;
            long group = i < 2 ? 0 : 1 + (i - 2);
            events.add(migration(t, duration, MigrationDirection.DEVICE_TO_HOST, bytes, trigger, group));
            if (i < 2) {
                events.add(new GpuPageFault(PID, DEVICE, t, t + duration, FaultSide.CPU, 0, false, true, 1));
            }
            t += duration + 1000;
        }
        // 31 GPU faults: 30 served by migrations, one by updating the mapping
        for (int i = 0; i < 31; i++) {
            events.add(new GpuPageFault(
                    PID, DEVICE, t, t + 500, FaultSide.GPU, 0x7f0000000000L + i * 4096L, i % 2 == 0, i < 30, 1));
            t += 1000;
        }
        return events;
    }

    private static GpuPageMigration migration(
            long begin, long duration, MigrationDirection direction, long bytes, MigrationTrigger trigger, long group) {
        return new GpuPageMigration(
                PID, DEVICE, begin, begin + duration, direction, 0x7f0000000000L, bytes, trigger, group);
    }

    private static UnifiedMemoryReport seedReport() {
        UnifiedMemoryReport report = new UnifiedMemoryReport();
        seedEvents().forEach(report::accept);
        return report;
    }

    @Test
    void textMatchesTheSeedLineForLine() {
        String text = UnifiedMemoryText.render(PID, seedReport());
        List<String> ours =
                text.lines().map(l -> l.strip().replaceAll(" {2,}", " ")).toList();
        assertEquals(SEED_TEXT.lines().toList(), ours, text);
    }

    @Test
    void columnsAreAlignedUnderTheirHeaders() {
        List<String> lines = UnifiedMemoryText.render(PID, seedReport()).lines().toList();
        String header = lines.get(2);
        String row = lines.get(3);
        // right-aligned: every cell of a column ends where its header ends
        assertEquals(header.indexOf("Count") + "Count".length(), row.indexOf("36") + 2, header + "\n" + row);
        assertEquals(header.indexOf("Total Time") + "Total Time".length(), row.indexOf("ms") + 2);
    }

    @Test
    void jsonHasTheSeedsValues() throws Exception {
        JsonNode json = new ObjectMapper().readTree(UnifiedMemoryJson.render(seedReport(), true));
        JsonNode device = json.get("devices").get(0);
        assertEquals(2, device.get("device_id").asInt());
        assertEquals(
                "gfx950 (via AMD EPYC 9655 96-Core Processor)",
                device.get("device_name").asText());
        assertFields(
                device.get("migrations").get("host_to_device"),
                "count",
                "36",
                "avg_size_bytes",
                "12024035.55",
                "min_size_bytes",
                "2097152",
                "max_size_bytes",
                "181829632",
                "total_size_bytes",
                "432865280",
                "total_time_ns",
                "827859200",
                "migration_throughput_gbps",
                "0.52");
        assertFields(
                device.get("migrations").get("device_to_host"),
                "count",
                "32",
                "avg_size_bytes",
                "2031616",
                "min_size_bytes",
                "4096",
                "total_size_bytes",
                "65011712",
                "total_time_ns",
                "39135300",
                "migration_throughput_gbps",
                "1.66");
        JsonNode d2d = device.get("migrations").get("device_to_device");
        assertEquals(0, d2d.get("count").asLong());
        assertEquals(0, d2d.get("migration_throughput_gbps").asDouble());
        JsonNode summary = json.get("summary");
        assertEquals(33, summary.get("total_page_faults").asLong());
        assertTrue(summary.get("xnack_enabled").asBoolean());
        assertFields(
                summary.get("migration_triggers"),
                "gpu_page_fault",
                "30",
                "cpu_page_fault",
                "2",
                "prefetch",
                "1",
                "ttm_eviction",
                "0",
                "unknown",
                "0");
        // the raw text keeps plain numbers (no exponent), as the seed shows them
        String raw = UnifiedMemoryJson.render(seedReport(), true);
        assertTrue(raw.contains("\"avg_size_bytes\" : 12024035.55"), raw);
        assertTrue(raw.contains("\"avg_size_bytes\" : 2031616,"), raw);
    }

    /** Each named field of {@code node} holds the number that follows it, written plainly ({@code 0.52}). */
    private static void assertFields(JsonNode node, String... namesAndValues) {
        for (int i = 0; i < namesAndValues.length; i += 2) {
            String name = namesAndValues[i];
            assertEquals(namesAndValues[i + 1], node.get(name).decimalValue().toPlainString(), name);
        }
    }

    @Test
    void sizesUseBinaryUnitsAndPrintfRounding() {
        assertEquals("173.4062MB", UnifiedMemoryText.size(java.math.BigDecimal.valueOf(181829632L)));
        assertEquals("4.0000KB", UnifiedMemoryText.size(java.math.BigDecimal.valueOf(4096)));
        assertEquals("1023.9990KB", UnifiedMemoryText.size(java.math.BigDecimal.valueOf(1048575)));
        assertEquals("1.0000MB", UnifiedMemoryText.size(java.math.BigDecimal.valueOf(1048576)));
    }

    @Test
    void aProcessWithoutUnifiedMemoryEventsHasNoReport() {
        UnifiedMemoryReport report = new UnifiedMemoryReport();
        report.accept(new GpuDevice(PID, 0, 0, "NVIDIA", "H100", "GPU-1", 132, 80L << 30, "9.0"));
        assertTrue(report.isEmpty());
    }
}
