package org.rocprofsys.cuda.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.rocprofsys.core.gpu.CopyKind;
import org.rocprofsys.core.gpu.Dim3;
import org.rocprofsys.core.gpu.GpuApiCall;
import org.rocprofsys.core.gpu.GpuDevice;
import org.rocprofsys.core.gpu.GpuEvent;
import org.rocprofsys.core.gpu.GpuKernel;
import org.rocprofsys.core.gpu.GpuMarker;
import org.rocprofsys.core.gpu.GpuMemoryAllocation;
import org.rocprofsys.core.gpu.GpuMemoryCopy;
import org.rocprofsys.core.gpu.GpuMemorySet;
import org.rocprofsys.core.gpu.GpuSynchronization;
import org.rocprofsys.core.gpu.MemoryKind;
import org.rocprofsys.core.gpu.SyncKind;
import org.rocprofsys.core.wire.WireFormat;

/**
 * Decodes the ring files recorded on the H100 (fixtures/README.md) and holds the result to what
 * each example program of examples/cuda did: kernels per name, copies per kind with their bytes,
 * API calls per function, NVTX ranges and their nesting, streams, threads.
 */
class FixtureDecodeTest {
    @TempDir
    Path dir;

    private static final String H100 = "NVIDIA H100 80GB HBM3";

    private Fixture load(String name) {
        return Fixture.load(name, dir);
    }

    private static Map<String, Long> kernels(Fixture f) {
        return f.count(GpuKernel.class, GpuKernel::name);
    }

    private static Map<String, Long> runtimeCalls(Fixture f) {
        return f.count(GpuApiCall.class, c -> c.domain() == CudaGpu.RUNTIME_API ? c.function() : "(driver)");
    }

    /** kind -> {copies, bytes} */
    private static Map<CopyKind, List<Long>> copies(Fixture f) {
        Map<CopyKind, List<Long>> m = new TreeMap<>();
        for (GpuMemoryCopy c : f.all(GpuMemoryCopy.class)) {
            List<Long> v = m.getOrDefault(c.kind(), List.of(0L, 0L));
            m.put(c.kind(), List.of(v.get(0) + 1, v.get(1) + c.bytes()));
        }
        return m;
    }

    static List<String> wholeFixtures() {
        return FixtureExpectations.recordedExamplesAnd("killed-after-kernels", "vector-add-args", "streams-args");
    }

    @ParameterizedTest
    @MethodSource("wholeFixtures")
    void everyFixtureDecodesWhole(String name) {
        Fixture f = load(name);
        assertEquals(Map.of(), f.skipped(), "records the decoder could not use");
        assertTrue(f.drops().stream().allMatch(d -> d == 0), "no ring dropped a record: " + f.drops());
        // one device, the H100 the fixtures were recorded on
        List<GpuDevice> devices = f.all(GpuDevice.class);
        assertEquals(1, devices.size());
        GpuDevice d = devices.get(0);
        assertEquals(0, d.index());
        assertEquals(H100, d.name());
        assertEquals(132, d.multiprocessors());
        assertEquals(85_017_493_504L, d.memoryBytes());
        assertEquals("9.0", d.computeCapability());
        assertTrue(d.uuid().matches("GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), d.uuid());
        // every time lies in the process's lifetime (CLOCK_MONOTONIC, as the host records)
        long end = f.state() == WireFormat.STATE_EXITED ? f.exitNs() : Long.MAX_VALUE;
        for (GpuEvent e : f.events()) {
            long[] times = switch (e) {
                case GpuApiCall c -> new long[] {c.beginNs(), c.endNs()};
                case GpuKernel k -> new long[] {k.beginNs(), k.endNs()};
                case GpuMemoryCopy c -> new long[] {c.beginNs(), c.endNs()};
                case GpuMemorySet s -> new long[] {s.beginNs(), s.endNs()};
                case GpuSynchronization s -> new long[] {s.beginNs(), s.endNs()};
                case GpuMarker m -> new long[] {m.beginNs(), m.endNs()};
                case GpuMemoryAllocation a -> new long[] {a.timestampNs(), a.timestampNs()};
                case GpuDevice dev -> new long[] {f.initNs(), f.initNs()};
                case org.rocprofsys.core.gpu.GpuPageMigration m -> new long[] {m.beginNs(), m.endNs()};
                case org.rocprofsys.core.gpu.GpuPageFault pf -> new long[] {pf.beginNs(), pf.endNs()};
                case org.rocprofsys.core.gpu.GpuCounterSample c -> new long[] {c.beginNs(), c.endNs()};
                // scratch memory: never decoded from a CUDA fixture
                case org.rocprofsys.core.gpu.GpuScratchMemory r -> new long[] {r.beginNs(), r.endNs()};
            };
            assertTrue(
                    times[0] >= f.initNs() && times[1] <= end && times[0] <= times[1],
                    e + " outside " + f.initNs() + ".." + end);
        }
        // every kernel, copy and memset comes after the begin of the runtime call that launched it
        Map<Long, GpuApiCall> runtimeByCorrelation = new HashMap<>();
        for (GpuApiCall c : f.all(GpuApiCall.class, c -> c.domain() == CudaGpu.RUNTIME_API)) {
            runtimeByCorrelation.put(c.correlationId(), c);
        }
        boolean apiTraced = !name.equals("cupti-subscriber");
        for (GpuEvent e : f.events()) {
            long corr;
            long begin;
            String expected;
            switch (e) {
                case GpuKernel k -> {
                    corr = k.correlationId();
                    begin = k.beginNs();
                    expected = "cudaLaunchKernel";
                }
                case GpuMemoryCopy c -> {
                    corr = c.correlationId();
                    begin = c.beginNs();
                    expected = "cudaMemcpy";
                }
                case GpuMemorySet s -> {
                    corr = s.correlationId();
                    begin = s.beginNs();
                    expected = "cudaMemset";
                }
                default -> {
                    continue;
                }
            }
            if (!apiTraced) {
                continue;
            }
            GpuApiCall call = runtimeByCorrelation.get(corr);
            assertNotNull(call, "no runtime call for " + e);
            assertTrue(call.function().startsWith(expected), call + " launched " + e);
            assertTrue(call.beginNs() < begin, e + " begins before its call " + call);
        }
    }

    @Test
    void vectorAdd() {
        Fixture f = load("vector-add");
        assertEquals(
                Map.of("vector_add(float const*, float const*, float*, int)", 1L, "spin(long long, int*)", 5L),
                kernels(f));
        GpuKernel add = f.all(GpuKernel.class, k -> k.mangledName().equals("_Z10vector_addPKfS0_Pfi"))
                .get(0);
        assertEquals(new Dim3(4096, 1, 1), add.grid());
        assertEquals(new Dim3(256, 1, 1), add.block());
        assertEquals(0, add.staticSharedBytes());
        assertEquals(0, add.dynamicSharedBytes());
        assertTrue(add.registersPerThread() > 0);
        long bytes = 4L << 20;
        assertEquals(
                Map.of(CopyKind.HOST_TO_DEVICE, List.of(2L, 2 * bytes), CopyKind.DEVICE_TO_HOST, List.of(1L, bytes)),
                copies(f));
        for (GpuMemoryCopy c : f.all(GpuMemoryCopy.class)) {
            assertEquals(c.kind() == CopyKind.HOST_TO_DEVICE ? -1 : 0, c.srcDevice());
            assertEquals(c.kind() == CopyKind.HOST_TO_DEVICE ? 0 : -1, c.dstDevice());
        }
        List<GpuMemorySet> sets = f.all(GpuMemorySet.class);
        assertEquals(1, sets.size());
        assertEquals(bytes, sets.get(0).bytes());
        assertEquals(0, sets.get(0).value());
        List<GpuMemoryAllocation> allocs = f.all(GpuMemoryAllocation.class);
        assertEquals(6, allocs.size());
        assertEquals(3, allocs.stream().filter(a -> !a.free()).count());
        assertTrue(allocs.stream()
                .allMatch(a -> a.bytes() == bytes && a.memory() == MemoryKind.DEVICE && a.device() == 0));
        // each allocation's address is freed once
        assertEquals(
                allocs.stream()
                        .filter(a -> !a.free())
                        .map(GpuMemoryAllocation::address)
                        .collect(Collectors.toSet()),
                allocs.stream()
                        .filter(GpuMemoryAllocation::free)
                        .map(GpuMemoryAllocation::address)
                        .collect(Collectors.toSet()));
        assertEquals(
                Map.of(SyncKind.EVENT, 5L),
                f.all(GpuSynchronization.class).stream()
                        .collect(Collectors.groupingBy(GpuSynchronization::kind, Collectors.counting())));
        Map<String, Long> calls = runtimeCalls(f);
        calls.remove("(driver)");
        assertEquals(FixtureExpectations.RUNTIME_CALLS, calls);
        Map<String, Long> driver = f.count(GpuApiCall.class, GpuApiCall::function);
        assertEquals(6L, driver.get("cuLaunchKernel"));
        assertEquals(2L, driver.get("cuMemcpyHtoD_v2"));
        assertEquals(1L, driver.get("cuMemcpyDtoH_v2"));
        assertEquals(3L, driver.get("cuMemAlloc_v2"));
        // all API calls on the main thread, the driver call nested in its runtime call
        assertEquals(
                Set.of(f.pid()),
                f.all(GpuApiCall.class).stream().map(GpuApiCall::tid).collect(Collectors.toSet()));
        for (GpuApiCall drv : f.all(GpuApiCall.class, c -> c.function().equals("cuLaunchKernel"))) {
            GpuApiCall rt = f.all(
                            GpuApiCall.class,
                            c -> c.domain() == CudaGpu.RUNTIME_API && c.correlationId() == drv.correlationId())
                    .get(0);
            assertTrue(rt.beginNs() <= drv.beginNs() && drv.endNs() <= rt.endNs(), rt + " holds " + drv);
        }
    }

    @Test
    void statsTablesOfVectorAdd() {
        Fixture f = load("vector-add");
        org.rocprofsys.core.gpu.stats.GpuStatistics stats =
                new org.rocprofsys.core.gpu.stats.GpuStatistics("cuda_api_stats");
        f.events().forEach(stats::accept);
        Map<String, List<org.rocprofsys.core.gpu.stats.StatsTable.Row>> t = stats.tables().stream()
                .collect(Collectors.toMap(
                        org.rocprofsys.core.gpu.stats.StatsTable::name,
                        org.rocprofsys.core.gpu.stats.StatsTable::rows));
        assertEquals(
                List.of("spin(long long, int*)|5", "vector_add(float const*, float const*, float*, int)|1"),
                t.get("kernel_stats").stream()
                        .map(r -> r.name() + "|" + r.calls())
                        .toList());
        assertEquals(
                List.of("MEMORY_COPY_HOST_TO_DEVICE|2", "MEMORY_COPY_DEVICE_TO_HOST|1"),
                t.get("memory_copy_stats").stream()
                        .map(r -> r.name() + "|" + r.calls())
                        .toList());
        assertEquals(
                6,
                t.get("cuda_api_stats").stream()
                        .filter(r -> r.name().equals("cudaLaunchKernel"))
                        .findFirst()
                        .orElseThrow()
                        .calls());
        assertEquals(
                Set.of("CUDA_RUNTIME_API", "CUDA_DRIVER_API", "KERNEL_DISPATCH", "MEMORY_COPY", "MEMORY_SET"),
                t.get("domain_stats").stream()
                        .map(org.rocprofsys.core.gpu.stats.StatsTable.Row::name)
                        .collect(Collectors.toSet()));
        assertEquals(
                100.0,
                t.get("kernel_stats").stream()
                        .mapToDouble(org.rocprofsys.core.gpu.stats.StatsTable.Row::percentage)
                        .sum(),
                1e-9);
    }

    @Test
    void spinKernelsLastWhatCudaEventsMeasured() {
        Fixture f = load("vector-add");
        Matcher m = Pattern.compile("spin (\\d+) event_ms=([0-9.]+)").matcher(f.stdout());
        List<GpuKernel> spins = f.all(GpuKernel.class, k -> k.mangledName().equals("_Z4spinxPi")).stream()
                .sorted(java.util.Comparator.comparingLong(GpuKernel::beginNs))
                .toList();
        int i = 0;
        while (m.find()) {
            double eventNs = Double.parseDouble(m.group(2)) * 1e6;
            GpuKernel k = spins.get(Integer.parseInt(m.group(1)));
            assertTrue(eventNs >= 1e6, "a >= 1 ms kernel");
            double error = Math.abs(k.durationNs() - eventNs) / eventNs;
            assertTrue(
                    error <= 0.02,
                    "spin " + m.group(1) + ": kernel " + k.durationNs() + " ns, events " + eventNs + " ns ("
                            + error * 100 + " %)");
            i++;
        }
        assertEquals(5, i);
    }

    @Test
    void streams() {
        Fixture f = load("streams");
        assertEquals(Map.of("scale(float*, int, float)", 12L), kernels(f));
        Map<Long, Long> perStream = f.all(GpuKernel.class).stream()
                .collect(Collectors.groupingBy(GpuKernel::stream, Collectors.counting()));
        assertEquals(4, perStream.size(), "one stream per cudaStream_t: " + perStream);
        assertTrue(perStream.values().stream().allMatch(n -> n == 3));
        long mib = 1L << 20;
        assertEquals(
                Map.of(
                        CopyKind.HOST_TO_DEVICE,
                        List.of(12L, 12 * mib),
                        CopyKind.DEVICE_TO_HOST,
                        List.of(12L, 12 * mib)),
                copies(f));
        // copies run on the same four streams as the kernels
        assertEquals(
                perStream.keySet(),
                f.all(GpuMemoryCopy.class).stream().map(GpuMemoryCopy::stream).collect(Collectors.toSet()));
        Map<String, Long> allocs =
                f.count(GpuMemoryAllocation.class, a -> a.memory() + (a.free() ? " free" : " alloc") + " " + a.bytes());
        assertEquals(
                Map.of(
                        "DEVICE alloc " + mib,
                        4L,
                        "DEVICE free " + mib,
                        4L,
                        "PINNED_HOST alloc " + mib,
                        4L,
                        "PINNED_HOST free " + mib,
                        4L),
                allocs);
        Map<String, Long> calls = runtimeCalls(f);
        assertEquals(24L, calls.get("cudaMemcpyAsync"));
        assertEquals(12L, calls.get("cudaLaunchKernel"));
        assertEquals(4L, calls.get("cudaStreamCreateWithFlags"));
        assertEquals(4L, calls.get("cudaStreamDestroy"));
        assertEquals(4L, calls.get("cudaHostAlloc"));
        assertEquals(4L, calls.get("cudaFreeHost"));
        assertEquals(1L, calls.get("cudaDeviceSynchronize"));
        assertEquals(
                Map.of(SyncKind.DEVICE, 1L),
                f.all(GpuSynchronization.class).stream()
                        .collect(Collectors.groupingBy(GpuSynchronization::kind, Collectors.counting())));
        // async copies on four streams overlap in time with work of other streams
        List<GpuKernel> ks = f.all(GpuKernel.class);
        List<GpuMemoryCopy> cs = f.all(GpuMemoryCopy.class);
        boolean overlap = cs.stream()
                .anyMatch(c -> ks.stream()
                        .anyMatch(k -> k.stream() != c.stream() && k.beginNs() < c.endNs() && c.beginNs() < k.endNs()));
        assertTrue(overlap, "a copy overlaps a kernel of another stream");
    }

    @Test
    void templatedKernelsAreDemangled() {
        Fixture f = load("templated");
        assertEquals(FixtureExpectations.TEMPLATED_KERNELS, kernels(f));
        assertEquals(
                Set.of(
                        "_ZN4demo4axpyIfLi4EEEvT_PKS1_PS1_i",
                        "_ZN4demo4axpyIdLi8EEEvT_PKS1_PS1_i",
                        "_ZN4demo6detail4fillIiEEvPT_iS2_"),
                f.all(GpuKernel.class).stream().map(GpuKernel::mangledName).collect(Collectors.toSet()));
        GpuKernel d = f.all(GpuKernel.class, k -> k.name().contains("double")).get(0);
        assertEquals(new Dim3((1 << 16) / 8 / 64, 1, 1), d.grid());
        assertEquals(new Dim3(64, 1, 1), d.block());
    }

    @Test
    void nvtxRangesNest() {
        Fixture f = load("nvtx");
        List<GpuMarker> markers = f.all(GpuMarker.class);
        Map<String, Long> shape = markers.stream()
                .collect(Collectors.groupingBy(
                        m -> m.domain() + "|" + m.message() + "|" + (m.range() ? "range" : "mark") + "|" + m.depth(),
                        TreeMap::new,
                        Collectors.counting()));
        assertEquals(
                Map.of(
                        "|outer|range|0",
                        1L,
                        "|middle|range|1",
                        2L,
                        "|inner|range|2",
                        2L,
                        "|begin-work|mark|1",
                        1L,
                        "demo-domain|domain-range|range|0",
                        1L,
                        "|async-range|range|-1",
                        1L),
                shape);
        assertTrue(markers.stream().noneMatch(GpuMarker::closedByProfiler));
        assertTrue(markers.stream().allMatch(m -> m.tid() == f.pid()), "all on the main thread");
        GpuMarker outer = markers.stream()
                .filter(m -> m.message().equals("outer"))
                .findFirst()
                .orElseThrow();
        GpuMarker async = markers.stream()
                .filter(m -> m.message().equals("async-range"))
                .findFirst()
                .orElseThrow();
        for (GpuMarker inner :
                markers.stream().filter(m -> m.message().equals("inner")).toList()) {
            GpuMarker middle = markers.stream()
                    .filter(m -> m.message().equals("middle")
                            && m.beginNs() <= inner.beginNs()
                            && inner.endNs() <= m.endNs())
                    .findFirst()
                    .orElseThrow();
            assertTrue(outer.beginNs() <= middle.beginNs() && middle.endNs() <= outer.endNs());
            // the kernel launched inside each inner range
            assertEquals(
                    1,
                    f.all(
                                    GpuApiCall.class,
                                    c -> c.function().equals("cudaLaunchKernel")
                                            && inner.beginNs() <= c.beginNs()
                                            && c.endNs() <= inner.endNs())
                            .size());
        }
        assertTrue(markers.stream().allMatch(m -> async.beginNs() <= m.beginNs() && m.endNs() <= async.endNs()));
        assertEquals(Map.of("tick(int*)", 3L), kernels(f));
    }

    @Test
    void twoThreadsLaunchOnTheirOwnThreadsAndStreams() {
        Fixture f = load("two-threads");
        assertEquals(Map.of("work_a(float*)", 50L, "work_b(float*)", 50L), kernels(f));
        Map<String, Set<Long>> streams = f.all(GpuKernel.class).stream()
                .collect(Collectors.groupingBy(
                        GpuKernel::name, Collectors.mapping(GpuKernel::stream, Collectors.toSet())));
        assertEquals(1, streams.get("work_a(float*)").size());
        assertEquals(1, streams.get("work_b(float*)").size());
        assertTrue(!streams.get("work_a(float*)").equals(streams.get("work_b(float*)")));
        Map<Long, Integer> launcher = new HashMap<>();
        for (GpuApiCall c : f.all(GpuApiCall.class, c -> c.function().equals("cudaLaunchKernel"))) {
            launcher.put(c.correlationId(), c.tid());
        }
        Map<String, Set<Integer>> threads = f.all(GpuKernel.class).stream()
                .collect(Collectors.groupingBy(
                        GpuKernel::name, Collectors.mapping(k -> launcher.get(k.correlationId()), Collectors.toSet())));
        assertEquals(1, threads.get("work_a(float*)").size());
        assertEquals(1, threads.get("work_b(float*)").size());
        int a = threads.get("work_a(float*)").iterator().next();
        int b = threads.get("work_b(float*)").iterator().next();
        assertTrue(a != b && a != f.pid() && b != f.pid(), "launched from the two worker threads");
        assertEquals(
                Map.of(a, 50L, b, 50L),
                f.all(GpuApiCall.class, c -> c.function().equals("cudaLaunchKernel")).stream()
                        .collect(Collectors.groupingBy(GpuApiCall::tid, Collectors.counting())));
        assertEquals(
                Map.of(SyncKind.STREAM, 2L),
                f.all(GpuSynchronization.class).stream()
                        .collect(Collectors.groupingBy(GpuSynchronization::kind, Collectors.counting())));
    }

    @Test
    void launchLoop() {
        Fixture f = load("launch-loop");
        assertTrue(f.stdout().startsWith("launch-loop count=1000 "));
        assertEquals(Map.of("empty()", 1001L), kernels(f));
        assertEquals(1001L, runtimeCalls(f).get("cudaLaunchKernel"));
        assertEquals(1001L, f.count(GpuApiCall.class, GpuApiCall::function).get("cuLaunchKernel"));
        assertEquals(
                1,
                f.all(GpuKernel.class).stream()
                        .map(GpuKernel::stream)
                        .distinct()
                        .count());
    }

    /** SIGSEGV (rc 139) or SIGKILL (rc 137) after the last flush: every kernel is kept. */
    @ParameterizedTest
    @CsvSource({"crash-after-kernels, 139", "killed-after-kernels, 137"})
    void deathAfterTheLastFlushKeepsEveryKernel(String fixture, int rc) {
        Fixture f = load(fixture);
        assertTrue(f.stdout().contains("kernels done 20") && f.stdout().contains("rc=" + rc), f.stdout());
        assertEquals(WireFormat.STATE_RUNNING, f.state(), "killed: never exited");
        assertEquals(-1, f.exitCode());
        assertEquals(Map.of("step(int*)", 20L), kernels(f));
        assertEquals(20L, runtimeCalls(f).get("cudaLaunchKernel"));
    }

    @Test
    void sigkillWithinTheFlushPeriodLosesThatPeriodsActivityOnly() {
        // killed 30 ms after its kernels completed, inside the 100 ms flush period: the kernels'
        // activity records were still in CUPTI's buffer, the API calls (written by the calling
        // thread itself) are all there
        Fixture f = load("killed-early");
        assertTrue(f.stdout().contains("kernels done 20") && f.stdout().contains("rc=137"), f.stdout());
        assertEquals(WireFormat.STATE_RUNNING, f.state());
        assertEquals(Map.of(), kernels(f));
        assertEquals(20L, runtimeCalls(f).get("cudaLaunchKernel"));
        assertEquals(20L, f.count(GpuApiCall.class, GpuApiCall::function).get("cuLaunchKernel"));
    }

    @Test
    void withoutCuptiTheProgramRunsWithOneNotice() {
        Fixture f = load("no-cupti");
        assertTrue(f.stdout().contains("templated ok") && f.stdout().contains("rc=0"), f.stdout());
        List<String> notices = f.stderr()
                .lines()
                .filter(l -> l.startsWith("[rocprof-sys][cuda]"))
                .toList();
        assertEquals(1, notices.size(), f.stderr());
        assertTrue(
                notices.get(0)
                        .startsWith("[rocprof-sys][cuda] CUPTI (libcupti.so) was not found: CUDA activity is "
                                + "not traced; set CUDA_HOME or ROCPROFSYS_CUPTI_LIBRARY (tried "),
                notices.get(0));
        assertEquals(List.of(), f.events());
        assertTrue(
                f.recordTypes().keySet().stream().noneMatch(CudaWireRecord::isCuda),
                "no CUDA record: " + f.recordTypes());
        assertEquals(WireFormat.STATE_EXITED, f.state());
        assertEquals(0, f.exitCode());
    }

    @Test
    void anotherSubscriberLeavesActivityTracingAndOneNotice() {
        Fixture f = load("cupti-subscriber");
        assertTrue(
                f.stdout().contains("own cupti subscription: ok") && f.stdout().contains("rc=0"), f.stdout());
        List<String> refusals =
                f.stderr().lines().filter(l -> l.contains("refused")).toList();
        assertEquals(
                List.of("[rocprof-sys][cuda] CUPTI refused the callback subscription "
                        + "(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED), another CUDA profiling tool may be attached: "
                        + "CUDA API calls and NVTX ranges are not traced"),
                refusals);
        assertEquals(List.of(), f.all(GpuApiCall.class));
        assertEquals(Map.of("one(int*)", 1L), kernels(f));
    }

    private static Map<String, String> args(GpuApiCall c) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        c.arguments().forEach(a -> m.put(a.name(), a.value()));
        return m;
    }

    @Test
    void vectorAddCallsCarryTheirArgumentsAndStream() {
        Fixture f = load("vector-add-args");
        assertEquals(Map.of(), f.skipped(), "records the decoder could not use");
        String bytes = Long.toString(4L << 20);
        Map<Long, GpuKernel> kernelByCorrelation =
                f.all(GpuKernel.class).stream().collect(Collectors.toMap(GpuKernel::correlationId, k -> k));
        List<GpuApiCall> runtime = f.all(GpuApiCall.class, c -> c.domain() == CudaGpu.RUNTIME_API);
        List<GpuApiCall> launches = runtime.stream()
                .filter(c -> c.function().equals("cudaLaunchKernel"))
                .toList();
        assertEquals(6, launches.size());
        List<String> shapes = launches.stream()
                .map(c -> args(c).get("gridDim") + args(c).get("blockDim"))
                .toList();
        assertEquals(
                List.of(
                        "(4096,1,1)(256,1,1)",
                        "(1,1,1)(32,1,1)",
                        "(1,1,1)(32,1,1)",
                        "(1,1,1)(32,1,1)",
                        "(1,1,1)(32,1,1)",
                        "(1,1,1)(32,1,1)"),
                shapes);
        for (GpuApiCall c : launches) {
            assertEquals(
                    List.of("func", "gridDim", "blockDim", "args", "sharedMem", "stream"),
                    List.copyOf(args(c).keySet()),
                    c.toString());
            assertEquals("0", args(c).get("sharedMem"));
            assertEquals("0x0", args(c).get("stream"), "the legacy default stream");
            GpuKernel k = kernelByCorrelation.get(c.correlationId());
            assertEquals(k.stream(), c.streamId(), "the call's stream id is its kernel's");
        }
        // three allocations of n floats, their pointers copied from, set, freed
        List<String> allocated = runtime.stream()
                .filter(c -> c.function().equals("cudaMalloc"))
                .peek(c -> assertEquals(bytes, args(c).get("size"), c.toString()))
                .map(c -> args(c).get("devPtr"))
                .toList();
        assertEquals(3, Set.copyOf(allocated).size(), allocated.toString());
        assertTrue(allocated.stream().allMatch(p -> p.startsWith("0x") && !p.equals("0x0")), allocated.toString());
        List<List<String>> copies = runtime.stream()
                .filter(c -> c.function().equals("cudaMemcpy"))
                .map(c -> List.of(args(c).get("dst"), args(c).get("src"), args(c).get("count"), args(c).get("kind")))
                .toList();
        assertEquals(3, copies.size());
        // each copy's device pointer (dst of an upload, src of a download), count and kind
        assertEquals(
                List.of(
                        List.of(allocated.get(0), bytes, "cudaMemcpyHostToDevice"),
                        List.of(allocated.get(1), bytes, "cudaMemcpyHostToDevice"),
                        List.of(allocated.get(2), bytes, "cudaMemcpyDeviceToHost")),
                copies.stream()
                        .map(c -> List.of(c.get(c.get(3).equals("cudaMemcpyDeviceToHost") ? 1 : 0), c.get(2), c.get(3)))
                        .toList());
        GpuApiCall memset = runtime.stream()
                .filter(c -> c.function().equals("cudaMemset"))
                .findFirst()
                .orElseThrow();
        assertEquals(Map.of("devPtr", allocated.get(2), "value", "0", "count", bytes), args(memset));
        assertEquals(
                Set.copyOf(allocated),
                runtime.stream()
                        .filter(c -> c.function().equals("cudaFree"))
                        .map(c -> args(c).get("devPtr"))
                        .collect(Collectors.toSet()));
        // the driver calls under them: cuMemAlloc_v2 returned the same pointers, cuLaunchKernel the same shape
        List<GpuApiCall> driver = f.all(GpuApiCall.class, c -> c.domain() == CudaGpu.DRIVER_API);
        assertEquals(
                allocated,
                driver.stream()
                        .filter(c -> c.function().equals("cuMemAlloc_v2"))
                        .map(c -> args(c).get("dptr"))
                        .toList());
        GpuApiCall firstLaunch = driver.stream()
                .filter(c -> c.function().equals("cuLaunchKernel"))
                .findFirst()
                .orElseThrow();
        assertEquals(
                List.of("4096", "1", "1", "256", "1", "1", "0"),
                List.of(
                        args(firstLaunch).get("gridDimX"),
                        args(firstLaunch).get("gridDimY"),
                        args(firstLaunch).get("gridDimZ"),
                        args(firstLaunch).get("blockDimX"),
                        args(firstLaunch).get("blockDimY"),
                        args(firstLaunch).get("blockDimZ"),
                        args(firstLaunch).get("sharedMemBytes")));
        assertEquals(kernelByCorrelation.get(firstLaunch.correlationId()).stream(), firstLaunch.streamId());
        // calls without a stream argument name none
        assertTrue(runtime.stream()
                .filter(c -> c.function().equals("cudaMemcpy") || c.function().equals("cudaMalloc"))
                .allMatch(c -> c.streamId() == -1));
    }

    @Test
    void streamsAsyncCopiesNameTheStreamTheirCopyRanOn() {
        Fixture f = load("streams-args");
        assertEquals(Map.of(), f.skipped(), "records the decoder could not use");
        Map<Long, GpuMemoryCopy> copyByCorrelation =
                f.all(GpuMemoryCopy.class).stream().collect(Collectors.toMap(GpuMemoryCopy::correlationId, c -> c));
        List<GpuApiCall> async = f.all(
                GpuApiCall.class,
                c -> c.domain() == CudaGpu.RUNTIME_API && c.function().equals("cudaMemcpyAsync"));
        assertEquals(24, async.size());
        for (GpuApiCall c : async) {
            GpuMemoryCopy copy = copyByCorrelation.get(c.correlationId());
            assertEquals(copy.stream(), c.streamId(), c.toString());
            assertEquals(Long.toString(copy.bytes()), args(c).get("count"));
            assertEquals(
                    copy.kind() == CopyKind.HOST_TO_DEVICE ? "cudaMemcpyHostToDevice" : "cudaMemcpyDeviceToHost",
                    args(c).get("kind"));
        }
        assertEquals(4, async.stream().map(GpuApiCall::streamId).distinct().count());
        assertEquals(
                4, async.stream().map(c -> args(c).get("stream")).distinct().count());
        assertEquals(
                List.of("1048576", "1048576", "1048576", "1048576"),
                f.all(GpuApiCall.class, c -> c.function().equals("cudaHostAlloc")).stream()
                        .map(c -> args(c).get("size"))
                        .toList());
    }
}
