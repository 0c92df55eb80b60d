package org.rocprofsys.core.perfetto;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.core.event.GpuActivity;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkFeed;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.gpu.GpuPageFault;
import org.rocprofsys.core.gpu.GpuPageFault.FaultSide;
import org.rocprofsys.core.gpu.GpuPageMigration;
import org.rocprofsys.core.gpu.MigrationDirection;
import org.rocprofsys.core.gpu.MigrationTrigger;
import org.rocprofsys.tracetest.DecodedTrace;

/** Seed 000's tracks: migrations as slices, page faults and migration throughput as counters. */
class PerfettoUnifiedMemoryTest {
    private static final long T0 = 123_456_789_012_345L;
    private static final int PID = 77;

    @TempDir
    Path dir;

    @Test
    void migrationSlicesAndCounters() throws IOException {
        DecodedTrace trace = trace(
                "trace.proto",
                new ThreadStarted(T0 + 1, PID, PID, 0),
                new GpuActivity(new GpuPageFault(PID, 1, T0 + 100, T0 + 200, FaultSide.GPU, 0x1000, true, true, 1)),
                new GpuActivity(new GpuPageMigration(
                        PID,
                        1,
                        T0 + 110,
                        T0 + 1_000_110,
                        MigrationDirection.HOST_TO_DEVICE,
                        0x1000,
                        2_000_000,
                        MigrationTrigger.GPU_PAGE_FAULT,
                        1)),
                new GpuActivity(new GpuPageFault(PID, 1, T0 + 2000, T0 + 2100, FaultSide.GPU, 0x9000, false, false, 3)),
                new GpuActivity(
                        new GpuPageFault(PID, -1, T0 + 3000, T0 + 3000, FaultSide.CPU, 0x9000, false, true, 1)));
        DecodedTrace.Track track = trace.tracks.values().stream()
                .filter(t -> t.descriptor().getName().equals("Unified Memory Migrations [Device 1]"))
                .findFirst()
                .orElseThrow();
        List<DecodedTrace.Slice> slices =
                trace.slices.stream().filter(s -> s.trackUuid == track.uuid()).toList();
        assertEquals(1, slices.size());
        DecodedTrace.Slice m = slices.getFirst();
        assertEquals("Host To Device", m.name);
        assertEquals("rocm_page_migration", m.category);
        assertEquals(T0 + 110, m.beginNs);
        assertEquals(T0 + 1_000_110, m.endNs);
        assertEquals(2_000_000L, ((Number) m.args.get("bytes")).longValue());
        assertEquals("gpu_page_fault", m.args.get("trigger"));

        Map<String, List<Double>> counters = trace.counters();
        assertEquals(List.of(1.0, 4.0), counters.get("Unified Memory Page Faults [Device 1]"));
        assertEquals(List.of(1.0), counters.get("Unified Memory Page Faults [Host]"));
        // 2,000,000 bytes in 1 ms: 2 GB/s while it lasts
        assertEquals(List.of(2.0, 0.0), counters.get("Unified Memory Migration Throughput [Device 1]"));
    }

    /** Upstream's {@code GPU <METRIC> [<dev>]} tracks: each kernel's value from its begin, 0 at its end. */
    @Test
    void gpuCounterTracks() throws IOException {
        DecodedTrace trace = trace(
                "counters.proto",
                new GpuActivity(new org.rocprofsys.core.gpu.GpuCounterSample(
                        PID, 0, 5, 5, "k", "SQ_WAVES", 64, T0 + 100, T0 + 200)),
                new GpuActivity(new org.rocprofsys.core.gpu.GpuCounterSample(
                        PID, 0, 6, 6, "k", "SQ_WAVES", 32, T0 + 300, T0 + 400)),
                new GpuActivity(new org.rocprofsys.core.gpu.GpuCounterSample(
                        PID, 0, 5, 5, "k", "TA_TA_BUSY[11]", 3, T0 + 100, T0 + 200)));
        Map<String, List<Double>> counters = trace.counters();
        assertEquals(List.of(64.0, 0.0, 32.0, 0.0), counters.get("GPU SQ_WAVES [0]"));
        assertEquals(List.of(3.0, 0.0), counters.get("GPU TA_TA_BUSY_11 [0]"));
    }

    /** The trace of process {@link #PID}, started at {@link #T0}, with {@code events}. */
    private DecodedTrace trace(String file, TraceEvent... events) throws IOException {
        Path out = dir.resolve(file);
        List<TraceEvent> all = new ArrayList<>();
        all.add(new ProcessStarted(T0, PID, 1, "/app", List.of("/app"), 0, 0));
        all.addAll(List.of(events));
        SinkFeed.run(
                new PerfettoSink(out, new PerfettoSink.Options(true, 0, "app")),
                all,
                new RunSummary(T0 + 10_000, 0, PID, "app", Map.of()));
        return DecodedTrace.read(out);
    }
}
