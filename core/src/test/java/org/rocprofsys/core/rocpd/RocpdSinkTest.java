package org.rocprofsys.core.rocpd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rocprofsys.core.gpu.MigrationDirection.DEVICE_TO_HOST;
import static org.rocprofsys.core.gpu.MigrationDirection.HOST_TO_DEVICE;
import static org.rocprofsys.core.gpu.MigrationTrigger.CPU_PAGE_FAULT;
import static org.rocprofsys.core.gpu.MigrationTrigger.GPU_PAGE_FAULT;
import static org.rocprofsys.core.gpu.MigrationTrigger.PREFETCH;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.core.event.Annotation;
import org.rocprofsys.core.event.AnnotationValue;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.CounterTrack;
import org.rocprofsys.core.event.GpuActivity;
import org.rocprofsys.core.event.ProcessEnd;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkFeed;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.gpu.CopyKind;
import org.rocprofsys.core.gpu.CudaLikeGpu;
import org.rocprofsys.core.gpu.Dim3;
import org.rocprofsys.core.gpu.GpuApiCall;
import org.rocprofsys.core.gpu.GpuArgument;
import org.rocprofsys.core.gpu.GpuDevice;
import org.rocprofsys.core.gpu.GpuKernel;
import org.rocprofsys.core.gpu.GpuMarker;
import org.rocprofsys.core.gpu.GpuMemoryAllocation;
import org.rocprofsys.core.gpu.GpuMemoryCopy;
import org.rocprofsys.core.gpu.GpuMemorySet;
import org.rocprofsys.core.gpu.GpuPageFault;
import org.rocprofsys.core.gpu.GpuPageMigration;
import org.rocprofsys.core.gpu.GpuSynchronization;
import org.rocprofsys.core.gpu.MemoryKind;
import org.rocprofsys.core.gpu.MigrationDirection;
import org.rocprofsys.core.gpu.MigrationTrigger;
import org.rocprofsys.core.gpu.SyncKind;
import org.rocprofsys.core.perfetto.PerfettoSink;
import org.rocprofsys.tracetest.DecodedTrace;
import org.rocprofsys.tracetest.EventStream;
import org.rocprofsys.tracetest.RocpdCounts;
import org.rocprofsys.tracetest.SqliteCli;

class RocpdSinkTest {
    private static final long T0 = 1_000_000_000L;
    private static final long MS = EventStream.MS;
    private static final int PID = 4242;

    @TempDir
    Path dir;

    /** A run with every kind of event the sinks see. */
    private static List<TraceEvent> everything() {
        CounterTrack memory = new CounterTrack("CPU Memory Usage (S)", "MB", Category.PROCESS_SAMPLING, PID);
        CounterTrack freq = new CounterTrack("CPU Frequency [0] (S)", "MHz", Category.CPU_FREQ, 0);
        EventStream s = EventStream.at(T0).in(PID);
        s.processStarted(0, "app", "--size", "8")
                .threadStarted(0, PID, 0)
                .threadStarted(1 * MS, PID + 1, 1)
                .category(Category.HOST)
                .begin(1 * MS, PID, "main")
                .category(Category.USER)
                .begin(2 * MS, PID, "compute", new Annotation("n", new AnnotationValue.Signed(7)))
                .mark(3 * MS, PID, "checkpoint")
                .end(4 * MS, PID, new Annotation("ok", new AnnotationValue.Bool(true)))
                .region(2 * MS, 3 * MS, PID + 1, "worker")
                .region(3 * MS, 4 * MS, PID + 1, "worker")
                .begin(5 * MS, PID + 1, "left open")
                .threadEnded(6 * MS, PID + 1)
                .counter(1 * MS, memory, 10.5)
                .counter(2 * MS, memory, 11.5)
                .counter(2 * MS, freq, 2400)
                .sample(3 * MS, PID, StackSample.Kind.CPU, MS, "main", "compute", "leaf")
                .sample(4 * MS, PID, StackSample.Kind.WALL, MS, "main")
                .fork(4 * MS, PID, PID + 10)
                .recordsDropped(4 * MS, PID, 3);
        gpu(s::add);
        s.category(Category.HOST).end(9 * MS, PID).processEnded(10 * MS, ProcessEnd.EXITED, 0);
        return s.events();
    }

    /** A 1 ms {@code add(float*)} kernel on device 0, stream 7, from {@code beginNs}. */
    private static GpuActivity addKernel(long correlationId, long beginNs) {
        return new GpuActivity(new GpuKernel(
                PID,
                0,
                7,
                correlationId,
                beginNs,
                beginNs + MS,
                "add(float*)",
                "_Z3addPf",
                new Dim3(64, 1, 1),
                new Dim3(256, 1, 1),
                0,
                128,
                32,
                CudaLikeGpu.KERNEL,
                CudaLikeGpu.on(CudaLikeGpu.KERNEL, 0, 7)));
    }

    /** Pages of the process migrated by device 0. */
    private static GpuActivity migration(
            long beginNs,
            long endNs,
            MigrationDirection direction,
            long address,
            long bytes,
            MigrationTrigger trigger,
            long faultGroup) {
        return new GpuActivity(
                new GpuPageMigration(PID, 0, beginNs, endNs, direction, address, bytes, trigger, faultGroup));
    }

    private static void gpu(Consumer<TraceEvent> out) {
        out.accept(new GpuActivity(new GpuDevice(PID, T0, 0, "NVIDIA", "H100", "GPU-1234", 132, 80L << 30, "9.0")));
        out.accept(new GpuActivity(new GpuApiCall(
                PID,
                PID,
                CudaLikeGpu.RUNTIME,
                "cudaLaunchKernel",
                T0 + 5 * MS,
                T0 + 5 * MS + 100,
                11,
                List.of(new GpuArgument("stream", "0x0")))));
        out.accept(new GpuActivity(new GpuApiCall(
                PID,
                PID,
                CudaLikeGpu.RUNTIME,
                "cudaMemcpyAsync",
                T0 + 5 * MS + 200,
                T0 + 5 * MS + 300,
                12,
                List.of())));
        out.accept(new GpuActivity(new GpuApiCall(
                PID, PID, CudaLikeGpu.RUNTIME, "cudaMemset", T0 + 5 * MS + 400, T0 + 5 * MS + 500, 13, List.of())));
        out.accept(addKernel(11, T0 + 6 * MS));
        out.accept(addKernel(0, T0 + 7 * MS));
        out.accept(new GpuActivity(new GpuMemoryCopy(
                PID,
                0,
                7,
                12,
                T0 + 5 * MS + 250,
                T0 + 5 * MS + 900,
                CopyKind.HOST_TO_DEVICE,
                4096,
                -1,
                0,
                CudaLikeGpu.COPY,
                CudaLikeGpu.on(CudaLikeGpu.COPY, 0, 7))));
        out.accept(new GpuActivity(new GpuMemorySet(
                PID,
                0,
                7,
                13,
                T0 + 8 * MS,
                T0 + 8 * MS + 50,
                4096,
                0,
                CudaLikeGpu.MEMSET,
                CudaLikeGpu.on(CudaLikeGpu.MEMSET, 0, 7))));
        out.accept(new GpuActivity(new GpuMemoryAllocation(
                PID, 0, 0, 0, T0 + 5 * MS, false, MemoryKind.DEVICE, 0x7000, 4096, CudaLikeGpu.ALLOCATION)));
        out.accept(new GpuActivity(new GpuMemoryAllocation(
                PID, 0, 0, 0, T0 + 8 * MS + 60, true, MemoryKind.DEVICE, 0x7000, 4096, CudaLikeGpu.ALLOCATION)));
        out.accept(new GpuActivity(
                new GpuMarker(PID, PID, "", "phase", T0 + 5 * MS, T0 + 8 * MS, true, 0, false, CudaLikeGpu.NVTX)));
        out.accept(new GpuActivity(
                new GpuMarker(PID, PID, "dom", "tick", T0 + 6 * MS, T0 + 6 * MS, false, -1, false, CudaLikeGpu.NVTX)));
        out.accept(
                new GpuActivity(new GpuSynchronization(PID, 0, 7, 14, T0 + 8 * MS, T0 + 8 * MS + 80, SyncKind.STREAM)));
        // unified memory: a GPU fault served by migrating two ranges to the device, a CPU fault
        // bringing one back, and a prefetch
        out.accept(new GpuActivity(new GpuPageFault(
                PID, 0, T0 + 9 * MS, T0 + 9 * MS + 10, GpuPageFault.FaultSide.GPU, 0x9000, true, true, 1)));
        out.accept(migration(T0 + 9 * MS, T0 + 9 * MS + 100, HOST_TO_DEVICE, 0x9000, 8192, GPU_PAGE_FAULT, 1));
        out.accept(migration(T0 + 9 * MS + 100, T0 + 9 * MS + 150, HOST_TO_DEVICE, 0xb000, 4096, GPU_PAGE_FAULT, 1));
        out.accept(new GpuActivity(new GpuPageFault(
                PID, -1, T0 + 9 * MS + 500, T0 + 9 * MS + 510, GpuPageFault.FaultSide.CPU, 0x9000, false, true, 1)));
        out.accept(migration(T0 + 9 * MS + 500, T0 + 9 * MS + 600, DEVICE_TO_HOST, 0x9000, 4096, CPU_PAGE_FAULT, 2));
        out.accept(migration(T0 + 9 * MS + 700, T0 + 9 * MS + 900, HOST_TO_DEVICE, 0x20000, 65536, PREFETCH, 0));
    }

    private static RunSummary summary() {
        return new RunSummary(T0 + 20 * MS, 0, PID, "app", Map.of());
    }

    private Path trace(List<TraceEvent> events) throws IOException {
        Path out = dir.resolve("perfetto-trace.proto");
        SinkFeed.run(new PerfettoSink(out, new PerfettoSink.Options(true, 0, "app")), events, summary());
        return out;
    }

    private Path rocpd(List<TraceEvent> events) throws IOException {
        Path db = dir.resolve("rocpd-" + PID + ".db");
        SinkFeed.run(RocpdSink.create(db, PID), events, summary());
        return db;
    }

    private static org.rocprofsys.core.event.RegionMetrics counters(long... values) {
        return new org.rocprofsys.core.event.RegionMetrics(
                -1,
                -1,
                -1,
                org.rocprofsys.core.event.RegionMetrics.ResourceUsage.NONE,
                new org.rocprofsys.core.event.RegionMetrics.CounterValues(values));
    }

    /**
     * CPU counters per region (papi_array): each region's change of each counter read is a
     * rocpd_pmc_event on the region's own event, described once per process (CPU, papi, RELATIVE);
     * a counter not read (absent) and a region closed by the profiler (no readings) have none.
     */
    @Test
    void cpuCountersOfARegionArePmcEventsOfItsEvent() throws Exception {
        long a = org.rocprofsys.core.event.RegionMetrics.ABSENT;
        List<TraceEvent> events = EventStream.at(T0)
                .in(PID)
                .processStarted(0, "app")
                .threadStarted(0, PID, 0)
                .begin(1 * MS, PID, "outer", counters(1_000, 5, a))
                .begin(2 * MS, PID, "inner", counters(2_000, 6, a))
                .end(3 * MS, PID, counters(3_500, 9, a))
                .end(4 * MS, PID, counters(9_000, 20, a))
                .begin(5 * MS, PID, "open at exit", counters(9_100, 21, a))
                .threadEnded(6 * MS, PID)
                .processEnded(7 * MS, ProcessEnd.EXITED, 0)
                .events();
        Path db = dir.resolve("rocpd-counters.db");
        SinkFeed.run(
                RocpdSink.create(
                        db, PID, List.of("perf::PERF_COUNT_SW_CPU_CLOCK", "perf::CONTEXT-SWITCHES", "PAPI_TOT_INS")),
                events,
                summary());
        assertEquals(
                Map.of(
                        "inner|perf::PERF_COUNT_SW_CPU_CLOCK", 1_500L,
                        "inner|perf::CONTEXT-SWITCHES", 3L,
                        "outer|perf::PERF_COUNT_SW_CPU_CLOCK", 8_000L,
                        "outer|perf::CONTEXT-SWITCHES", 15L),
                RocpdCounts.query(
                        db,
                        "SELECT r.name || '|' || pi.name, pe.value FROM regions r"
                                + " JOIN rocpd_pmc_event pe ON pe.event_id = r.event_id"
                                + " JOIN rocpd_info_pmc pi ON pi.id = pe.pmc_id"));
        assertEquals(
                Map.of("CPU|papi|RELATIVE|CPU", 2L),
                RocpdCounts.query(
                        db,
                        "SELECT pi.target_arch || '|' || pi.component || '|' || pi.value_type || '|' || a.type,"
                                + " COUNT(*) FROM rocpd_info_pmc pi JOIN rocpd_info_agent a ON a.id = pi.agent_id"
                                + " GROUP BY 1"));
        // the two regions with values have events of their own
        assertEquals(2, RocpdCounts.number(db, "SELECT COUNT(DISTINCT event_id) FROM rocpd_pmc_event"));
        SqliteCli.assertConsistent(db);
    }

    @Test
    void everyCountOfTheTraceIsACountOfTheViews() throws Exception {
        List<TraceEvent> events = everything();
        DecodedTrace t = DecodedTrace.read(trace(events));
        Path db = rocpd(events);
        Map<String, Long> compared = RocpdCounts.assertSameCounts(t, db);
        // the comparison is not vacuous: each kind is there
        assertEquals(2L, compared.get("samples"));
        assertEquals(3L, compared.get("kernels"));
        // one copy and four unified-memory migrations
        assertEquals(5L, compared.get("memory_copies"));
        // three process-sampling values and two running page-fault counts
        assertEquals(5L, compared.get("counter_samples"));
        assertEquals(2L, compared.get("memory_allocations"));
        assertTrue(compared.get("regions") >= 12, compared.toString());
    }

    @Test
    void rowsHoldWhatTheEventsSaid() throws Exception {
        Path db = rocpd(everything());
        assertEquals(
                Map.of("guid", 1L, "schema_version", 1L, "uuid", 1L),
                RocpdCounts.query(db, "SELECT tag, COUNT(*) FROM rocpd_metadata GROUP BY tag"));
        assertEquals(3, RocpdCounts.number(db, "SELECT value FROM rocpd_metadata WHERE tag = 'schema_version'"));
        assertEquals(
                Map.of(String.valueOf(PID), 10L * MS),
                RocpdCounts.query(db, "SELECT pid, \"end\" - start FROM processes"));
        assertEquals(
                Map.of("Thread 0", 1L, "Thread 1", 1L),
                RocpdCounts.query(db, "SELECT name, COUNT(*) FROM threads GROUP BY name"));
        // durations and nesting data
        assertEquals(
                Map.of("compute", 2 * MS, "main", 8 * MS, "checkpoint", 0L, "worker", 2 * MS, "left open", MS),
                RocpdCounts.query(
                        db,
                        "SELECT name, SUM(duration) FROM regions WHERE category IN ('user', 'host') GROUP BY name"));
        // annotations of begin and end, and the profiler's close
        assertEquals(
                Map.of("n", 7L, "ok", 1L, "closed_by_profiler", 1L),
                RocpdCounts.query(
                        db,
                        "SELECT name, CASE value WHEN 'true' THEN 1 ELSE value END FROM region_args"
                                + " WHERE name IN ('n', 'ok', 'closed_by_profiler')"));
        // the sampled stack, outermost first
        assertEquals(
                Map.of("compute", 1L),
                RocpdCounts.query(
                        db,
                        "SELECT json_extract(call_stack, '$[1].name'), COUNT(*) FROM samples"
                                + " WHERE json_array_length(call_stack) = 3"));
        assertEquals(Map.of("Thread 0", 2L), RocpdCounts.query(db, "SELECT name, COUNT(*) FROM samples GROUP BY name"));
        // device work: the launching call, the agent, symbol, sizes
        assertEquals(
                Map.of("cudaLaunchKernel", 1L, "unknown", 1L),
                RocpdCounts.query(
                        db,
                        "SELECT region, COUNT(*) FROM kernels WHERE category = 'cuda_kernel_dispatch' GROUP BY region"));
        assertEquals(
                Map.of("H100", 3L),
                RocpdCounts.query(
                        db,
                        "SELECT a.name, COUNT(*) FROM rocpd_kernel_dispatch k JOIN rocpd_info_agent a"
                                + " ON a.id = k.agent_id GROUP BY a.name"));
        assertEquals(
                Map.of("add(float*)", 256L * 64),
                RocpdCounts.query(
                        db, "SELECT name, workgroup_x * grid_x FROM kernels WHERE name = 'add(float*)' GROUP BY name"));
        assertEquals(
                Map.of("CPU", 1L),
                RocpdCounts.query(
                        db,
                        "SELECT src_agent_type, COUNT(*) FROM memory_copies WHERE category = 'cuda_memory_copy'"
                                + " GROUP BY 1"));
        assertEquals(
                Map.of("GPU", 1L),
                RocpdCounts.query(
                        db,
                        "SELECT dst_agent_type, COUNT(*) FROM memory_copies WHERE category = 'cuda_memory_copy'"
                                + " GROUP BY 1"));
        // unified-memory migrations: named as in the trace, between the device and host memory at
        // one address, bytes, trigger
        assertEquals(
                Map.of("Host To Device", 8192L + 4096 + 65536, "Device To Host", 4096L),
                RocpdCounts.query(
                        db,
                        "SELECT name, SUM(size) FROM memory_copies WHERE category = 'rocm_page_migration'"
                                + " GROUP BY name"));
        assertEquals(
                Map.of("Host To Device|CPU>GPU", 3L, "Device To Host|GPU>CPU", 1L),
                RocpdCounts.query(
                        db,
                        "SELECT name || '|' || src_agent_type || '>' || dst_agent_type, COUNT(*) FROM memory_copies"
                                + " WHERE category = 'rocm_page_migration' AND src_address = dst_address GROUP BY 1"));
        assertEquals(
                Map.of("gpu_page_fault", 2L, "cpu_page_fault", 1L, "prefetch", 1L),
                RocpdCounts.query(
                        db,
                        "SELECT json_extract(e.extdata, '$.trigger'), COUNT(*) FROM rocpd_memory_copy m"
                                + " JOIN rocpd_event e ON e.id = m.event_id"
                                + " WHERE json_extract(e.extdata, '$.fault_group') IS NOT NULL GROUP BY 1"));
        assertEquals(
                Map.of("ALLOC", 4096L, "FREE", 4096L),
                RocpdCounts.query(db, "SELECT type, size FROM memory_allocations"));
        assertEquals(
                Map.of(
                        "CPU Frequency [0] (S)",
                        2400L,
                        "CPU Memory Usage (S)",
                        22L,
                        "Unified Memory Page Faults [Device 0]",
                        1L,
                        "Unified Memory Page Faults [Host]",
                        1L),
                RocpdCounts.query(
                        db,
                        "SELECT pi.name, SUM(pe.value) FROM rocpd_pmc_event pe JOIN rocpd_info_pmc pi"
                                + " ON pi.id = pe.pmc_id GROUP BY pi.name"));
        // rocprof-sys's summary views
        assertEquals(
                Map.of("add(float*)", 2L, "MEMORY_SET", 1L),
                RocpdCounts.query(db, "SELECT name, calls FROM kernel_summary"));
        assertEquals(
                Map.of("MEMORY_ALLOCATION_ALLOC", 1L, "MEMORY_ALLOCATION_FREE", 1L),
                RocpdCounts.query(db, "SELECT name, calls FROM memory_allocation_summary"));
        assertEquals(
                Map.of("MEMORY_COPY_HOST_TO_DEVICE", 1L, "Host To Device", 3L, "Device To Host", 1L),
                RocpdCounts.query(db, "SELECT name, calls FROM memory_copy_summary"));
        assertEquals(
                Map.of("cudaLaunchKernel", 1L, "unknown", 1L, "cudaMemset", 1L),
                RocpdCounts.query(db, "SELECT name, calls FROM kernel_summary_region"));
    }

    @Test
    void everyViewAnswersAndTheFileIsConsistent() throws Exception {
        Path db = rocpd(everything());
        for (String view : List.of(
                "code_objects",
                "kernel_symbols",
                "processes",
                "threads",
                "regions",
                "region_args",
                "samples",
                "sample_regions",
                "regions_and_samples",
                "kernels",
                "pmc_info",
                "pmc_events",
                "events_args",
                "stream_args",
                "memory_copies",
                "memory_allocations",
                "scratch_memory",
                "counters_collection",
                "top_kernels",
                "busy",
                "top",
                "kernel_summary",
                "kernel_summary_region",
                "memory_copy_summary",
                "memory_allocation_summary")) {
            RocpdCounts.number(db, "SELECT COUNT(*) FROM \"" + view + "\"");
        }
        for (String table : RocpdSchema.TABLES) {
            RocpdCounts.number(db, "SELECT COUNT(*) FROM \"" + table + "\"");
        }
        assertEquals(0, RocpdCounts.number(db, "SELECT COUNT(*) FROM pragma_foreign_key_check"));
        assertEquals(Map.of("ok", 1L), RocpdCounts.query(db, "SELECT integrity_check, 1 FROM pragma_integrity_check"));
        for (String suffix : List.of("-journal", "-wal", "-shm")) {
            assertTrue(Files.notExists(Path.of(db + suffix)), "the file stands alone at the end: " + suffix);
        }
        SqliteCli.assertConsistent(db);
    }

    /** The collector ends without finishing: the file still opens as the last commit's database. */
    @Test
    void aFileCutOffMidRunIsAValidDatabaseOfWhatWasCommitted() throws Exception {
        Path db = dir.resolve("rocpd-cut.db");
        RocpdSink sink = RocpdSink.create(db, PID);
        EventStream s = EventStream.at(T0).in(PID).processStarted(0, "app").threadStarted(0, PID, 0);
        var normaliser = SinkFeed.feed(sink, s.events());
        int regions = (int) (RocpdSink.COMMIT_ROWS + 1000);
        for (int i = 0; i < regions; i++) {
            normaliser.accept(new org.rocprofsys.core.event.RegionBegin(
                    T0 + 10L * i,
                    PID,
                    PID,
                    "r",
                    Category.USER,
                    List.of(),
                    org.rocprofsys.core.event.RegionMetrics.NONE));
            normaliser.accept(new org.rocprofsys.core.event.RegionEnd(
                    T0 + 10L * i + 5,
                    PID,
                    PID,
                    Category.USER,
                    List.of(),
                    org.rocprofsys.core.event.RegionMetrics.NONE,
                    false));
        }
        // with the writer idle, a copy of the file and then its journal is what a killed collector
        // leaves: the next opener rolls the unfinished transaction back
        sink.awaitWriter();
        Path cut = Files.createDirectories(dir.resolve("cut"));
        for (String suffix : List.of("", "-journal")) {
            Path f = Path.of(db + suffix);
            if (Files.exists(f)) {
                Files.copy(f, cut.resolve(f.getFileName()));
            }
        }
        Path copy = cut.resolve(db.getFileName());
        long committed = RocpdCounts.number(copy, "SELECT COUNT(*) FROM regions");
        // a commit came at the latest when COMMIT_ROWS rows were waiting (earlier when half a
        // second had passed, on a slow machine)
        assertTrue(committed > 0 && committed <= regions, "committed " + committed);
        assertEquals(0, RocpdCounts.number(copy, "SELECT COUNT(*) FROM pragma_foreign_key_check"));
        assertEquals(
                Map.of("ok", 1L), RocpdCounts.query(copy, "SELECT integrity_check, 1 FROM pragma_integrity_check"));
        sink.finish(summary());
        assertEquals(regions, RocpdCounts.number(db, "SELECT COUNT(*) FROM regions"));
    }

    /**
     * The collector killed (SIGKILL) while it writes: the file and its hot journal open as the
     * database of the last commit, consistent, with every region committed before the kill.
     */
    @Test
    void aKilledCollectorLeavesTheDatabaseOfItsLastCommit() throws Exception {
        Path db = dir.resolve("rocpd-killed.db");
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        RocpdWritingChild.class.getName(),
                        db.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        long committed;
        try (var out = new java.io.BufferedReader(new java.io.InputStreamReader(child.getInputStream()))) {
            String line = out.readLine();
            assertTrue(line != null && line.startsWith(RocpdWritingChild.COMMITTED + " "), "the child said " + line);
            committed = Long.parseLong(line.substring(line.indexOf(' ') + 1));
            // it goes on writing (and committing) until killed
            Thread.sleep(300);
        } finally {
            child.destroyForcibly().waitFor();
        }
        long regions = RocpdCounts.number(db, "SELECT COUNT(*) FROM regions");
        assertTrue(regions >= committed, "regions " + regions + ", committed before the kill " + committed);
        assertEquals(0, RocpdCounts.number(db, "SELECT COUNT(*) FROM pragma_foreign_key_check"));
        assertEquals(Map.of("ok", 1L), RocpdCounts.query(db, "SELECT integrity_check, 1 FROM pragma_integrity_check"));
        SqliteCli.assertConsistent(db);
    }

    @Test
    void unusedKindsGiveEmptyViewsNotErrors() throws Exception {
        List<TraceEvent> events = EventStream.at(T0)
                .in(PID)
                .processStarted(0, "app")
                .threadStarted(0, PID, 0)
                .events();
        Path db = rocpd(events);
        assertEquals(0, RocpdCounts.number(db, "SELECT COUNT(*) FROM kernels"));
        assertEquals(0, RocpdCounts.number(db, "SELECT COUNT(*) FROM busy"));
        assertEquals(1, RocpdCounts.number(db, "SELECT COUNT(*) FROM processes"));
    }
}
