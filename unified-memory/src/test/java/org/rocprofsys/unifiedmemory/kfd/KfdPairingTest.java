package org.rocprofsys.unifiedmemory.kfd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.gpu.GpuEvent;
import org.rocprofsys.core.gpu.GpuPageFault;
import org.rocprofsys.core.gpu.GpuPageFault.FaultSide;
import org.rocprofsys.core.gpu.GpuPageMigration;
import org.rocprofsys.core.gpu.MigrationDirection;
import org.rocprofsys.core.gpu.MigrationTrigger;
import org.rocprofsys.unifiedmemory.report.UnifiedMemoryReport;

/**
 * A recorded-format session: the target (pid 100) and its child (101) take a GPU fault that
 * migrates two ranges, a CPU fault, a prefetch, with both kernels' migrate-end formats; another
 * process's events, a dropped-events line, an end without start and a start without end mixed in.
 */
class KfdPairingTest {
    private static final int GPU_ID = 0x8e2a;
    private static final long OFFSET = -1_000_000L;

    static final List<String> SESSION = List.of(
            "7 5000000 -100 @7f0000(8e2a) W",
            "5 5000100 -100 @7f0000000(200) 0->8e2a 0:8e2a 1",
            "6 5100100 -100 @7f0000000(200) 0->8e2a 1 0",
            "5 5100200 -100 @7f0200000(200) 0->8e2a 0:8e2a 1",
            "6 5200200 -100 @7f0200000(200) 0->8e2a 1",
            "8 5200300 -100 @7f0000(8e2a) M",
            "5 6000000 -555 @1000(10) 0->8e2a 0:0 1", // another process
            "6 6000500 -555 @1000(10) 0->8e2a 1 0",
            "e 6100000 -100 3",
            "5 7000000 -101 @7f0400000(1) 8e2a->0 0:0 2", // the child: a CPU fault pulls a page back
            "6 7000400 -101 @7f0400000(1) 8e2a->0 2 0",
            "5 8000000 -100 @7f0800000(400) 0->8e2a 8e2a:8e2a 0", // a prefetch
            "6 8400000 -100 @7f0800000(400) 0->8e2a 0 0",
            "6 8500000 -100 @7f0900000(10) 0->8e2a 1 0", // an end whose start came before we listened
            "7 9000000 -100 @7f5000(8e2a) R", // a fault served by updating the mapping
            "8 9000200 -100 @7f5000(8e2a) U",
            "5 9100000 -100 @7f0a00000(10) 0->8e2a 0:0 1", // a start without end (the run ended)
            "5 9200000 -100 @7f0b00000(10) 0->8e2a 0:0 3",
            "6 9300000 -100 @7f0b00000(10) 0->8e2a 3 -12"); // a failed eviction

    @Test
    void pairsCountsAndTimeBase() {
        List<GpuEvent> out = new ArrayList<>();
        KfdPairing pairing =
                new KfdPairing(pid -> pid == 100 || pid == 101, node -> node == GPU_ID ? 1 : -1, OFFSET, out::add);
        SESSION.forEach(l -> KfdEventParser.parse(l).ifPresent(pairing::accept));
        KfdPairing.Counts counts = pairing.finish();

        List<GpuPageMigration> migrations = out.stream()
                .filter(GpuPageMigration.class::isInstance)
                .map(GpuPageMigration.class::cast)
                .toList();
        assertEquals(4, migrations.size(), out.toString());
        GpuPageMigration first = migrations.get(0);
        assertEquals(
                new GpuPageMigration(
                        100,
                        1,
                        5000100 + OFFSET,
                        5100100 + OFFSET,
                        MigrationDirection.HOST_TO_DEVICE,
                        0x7f0000000L << 12,
                        0x200L << 12,
                        MigrationTrigger.GPU_PAGE_FAULT,
                        first.faultGroup()),
                first);
        // both ranges of the one GPU fault are one group
        assertEquals(first.faultGroup(), migrations.get(1).faultGroup());
        assertEquals(true, first.faultGroup() != 0);
        GpuPageMigration cpu = migrations.get(2);
        assertEquals(MigrationDirection.DEVICE_TO_HOST, cpu.direction());
        assertEquals(101, cpu.pid());
        assertEquals(4096, cpu.bytes());
        assertEquals(MigrationTrigger.CPU_PAGE_FAULT, cpu.trigger());
        assertEquals(0, cpu.faultGroup());
        GpuPageMigration prefetch = migrations.get(3);
        assertEquals(MigrationTrigger.PREFETCH, prefetch.trigger());
        assertEquals(0x400L << 12, prefetch.bytes());
        assertEquals(400_000, prefetch.durationNs());

        List<GpuPageFault> faults = out.stream()
                .filter(GpuPageFault.class::isInstance)
                .map(GpuPageFault.class::cast)
                .toList();
        assertEquals(3, faults.size(), faults.toString());
        assertEquals(
                new GpuPageFault(
                        100, 1, 5000000 + OFFSET, 5200300 + OFFSET, FaultSide.GPU, 0x7f0000L << 12, true, true, 1),
                faults.get(0));
        assertEquals(FaultSide.CPU, faults.get(1).side());
        assertEquals(false, faults.get(2).migrated());

        assertEquals(new KfdPairing.Counts(2, 3, 1, 1, 1), counts);
    }

    @Test
    void theReportOfTheSession() {
        UnifiedMemoryReport target = new UnifiedMemoryReport();
        List<GpuEvent> out = new ArrayList<>();
        KfdPairing pairing = new KfdPairing(pid -> pid == 100, node -> 1, 0, out::add);
        SESSION.forEach(l -> KfdEventParser.parse(l).ifPresent(pairing::accept));
        pairing.finish();
        out.forEach(target::accept);
        String text = org.rocprofsys.unifiedmemory.report.UnifiedMemoryText.render(100, target);
        List<String> lines =
                text.lines().map(l -> l.strip().replaceAll(" {2,}", " ")).toList();
        assertEquals(
                List.of(
                        "==100== Unified Memory profiling result:",
                        "Device \"Device 1 (1)\"",
                        "Count Avg Size Min Size Max Size Total Size Total Time Migration Throughput Name",
                        "3 2.6667MB 2.0000MB 4.0000MB 8.0000MB 0.6000ms 13.98 GB/s Host To Device",
                        "Total Page Faults: 2",
                        "Migration Triggers:",
                        "GPU page fault: 1",
                        "Prefetch: 1"),
                lines,
                text);
    }
}
