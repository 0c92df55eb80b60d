package org.rocprofsys.core.perfetto;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.event.CounterTrack;
import org.rocprofsys.core.event.EventSink;
import org.rocprofsys.core.event.Fork;
import org.rocprofsys.core.event.GpuActivity;
import org.rocprofsys.core.event.Mark;
import org.rocprofsys.core.event.ProcessEnded;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RecordsDropped;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkEvent;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.ThreadEnded;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.gpu.DevicePlacement;
import org.rocprofsys.core.gpu.DeviceTrack;
import org.rocprofsys.core.gpu.GpuAnnotation;
import org.rocprofsys.core.gpu.GpuApiCall;
import org.rocprofsys.core.gpu.GpuCounterSample;
import org.rocprofsys.core.gpu.GpuDevice;
import org.rocprofsys.core.gpu.GpuEvent;
import org.rocprofsys.core.gpu.GpuKernel;
import org.rocprofsys.core.gpu.GpuMarker;
import org.rocprofsys.core.gpu.GpuMemoryAllocation;
import org.rocprofsys.core.gpu.GpuMemoryCopy;
import org.rocprofsys.core.gpu.GpuMemorySet;
import org.rocprofsys.core.gpu.GpuPageFault;
import org.rocprofsys.core.gpu.GpuPageMigration;
import org.rocprofsys.core.gpu.GpuScratchMemory;
import org.rocprofsys.core.gpu.GpuSynchronization;
import org.rocprofsys.core.perfetto.proto.ClockSnapshot;
import org.rocprofsys.core.perfetto.proto.DebugAnnotation;
import org.rocprofsys.core.perfetto.proto.TracePacket;
import org.rocprofsys.core.perfetto.proto.TracePacketDefaults;
import org.rocprofsys.core.perfetto.proto.TrackDescriptor;
import org.rocprofsys.core.perfetto.proto.TrackEvent;
import org.rocprofsys.core.timemory.RegionAnnotations;

/**
 * Writes the event stream as a Perfetto protobuf trace ({@code perfetto-trace.proto}), streaming:
 * every event becomes one {@code TracePacket} written as it arrives, so memory does not grow with
 * the length of the run (only with the number of live threads and the distinct names each uses).
 *
 * <p>Layout of the trace (upstream's tracks, inventory §4.3):
 * <ul>
 * <li>Sequence 1 (the "global" sequence) holds a {@code ClockSnapshot} of BOOTTIME, MONOTONIC and
 * REALTIME, and one process track per process image ({@code ProcessDescriptor} pid, cmdline,
 * process_name). Its packets are stamped with absolute CLOCK_MONOTONIC ns.</li>
 * <li>Every thread gets its own packet sequence and its own thread track
 * ({@code ThreadDescriptor} pid, tid, thread_name: the executable's basename for the main thread,
 * {@code Thread N} for the others). The first packet of the sequence clears the incremental state
 * and sets the defaults: events go to the thread's track (so they carry no track_uuid) and are
 * stamped on the sequence-scoped, incremental clock {@value #SEQUENCE_CLOCK_ID}, whose
 * ClockSnapshot ties it to MONOTONIC. Timestamps are then small deltas in units of
 * {@link Options#timestampUnitNs()}. Event names, categories and debug-annotation names are
 * interned once per sequence, in the packet of the first event that uses them.</li>
 * </ul>
 *
 * <p>Regions become SLICE_BEGIN/SLICE_END (the end carries no category and no name), marks,
 * forks and dropped-record notices become INSTANTs. Regions the pipeline closed because their
 * thread or process ended, or the run finished, with them open ({@link RegionEnd#forced()}) end
 * with the debug annotation {@value #CLOSED_BY_PROFILER}{@code = true}. The sink expects the
 * pipeline's balanced stream: a slice still open at {@link #finish} stays open.
 *
 * <p>Clocks: the input timestamps are CLOCK_MONOTONIC. The ClockSnapshot maps REALTIME as
 * MONOTONIC + {@link Options#realtimeOffsetNs()} (so the UI shows wall-clock times) and BOOTTIME,
 * the trace clock of Perfetto, as MONOTONIC + {@link Options#boottimeOffsetNs()}. The sink does not
 * read BOOTTIME itself (that needs {@code clock_gettime(CLOCK_BOOTTIME)}); with the default offset
 * 0 the trace time equals CLOCK_MONOTONIC, which is exact on a machine that was never suspended
 * and otherwise only shifts the trace's time axis, never relative or wall-clock times.
 *
 * <p>The sink dispatches; each job is a class of its own: {@link TrackRegistry} (which track and
 * sequence an event goes on, each described once), {@link SliceWriter} (region slices, instants,
 * sampled stacks; region runs and their {@link SegmentEncoders}), {@link CounterWriter} (counter
 * values), {@link FlowWriter} (flow ids on events). The GPU methods below are the GPU writer, which
 * reaches the others through the helpers above them.
 *
 * <p>Not thread-safe: {@link EventSink} calls come from one thread.
 */
public final class PerfettoSink implements EventSink {

    /**
     * How the trace is written.
     *
     * @param annotations      {@code ROCPROFSYS_PERFETTO_ANNOTATIONS}: debug annotations of the
     *                         regions (theirs plus {@code begin_ns}/{@code end_ns}); the sink's own
     *                         annotations ({@value #CLOSED_BY_PROFILER}, fork's child pid, the
     *                         dropped-record count) are always written
     * @param realtimeOffsetNs CLOCK_REALTIME minus CLOCK_MONOTONIC (see {@link RunSummary})
     * @param boottimeOffsetNs CLOCK_BOOTTIME minus CLOCK_MONOTONIC; 0 when unknown
     * @param executable       basename of the target executable: the main thread's name in a
     *                         process whose {@link ProcessStarted} gave no executable or was not
     *                         seen (otherwise that executable's basename names it)
     * @param timestampUnitNs  unit of the incremental timestamps, >= 1; 1 keeps nanosecond
     *                         precision, a larger unit rounds timestamps down to multiples of it
     *                         and makes traces smaller
     * @param regionValues     the component and counter values put on region ends (with
     *                         {@code annotations}), from the readings the regions carry
     * @param encoderThreads   threads that encode long stretches of one thread's region runs
     *                         beside the sink's ({@link SegmentEncoders}); 0 for none. Only for a
     *                         stream that keeps every byte in order (not a ring_buffer budget)
     */
    public record Options(
            boolean annotations,
            long realtimeOffsetNs,
            long boottimeOffsetNs,
            String executable,
            long timestampUnitNs,
            RegionAnnotations regionValues,
            int encoderThreads) {
        public Options {
            Objects.requireNonNull(executable, "executable");
            Objects.requireNonNull(regionValues, "regionValues");
            if (timestampUnitNs < 1) {
                throw new IllegalArgumentException("timestampUnitNs must be >= 1: " + timestampUnitNs);
            }
            if (encoderThreads < 0) {
                throw new IllegalArgumentException("encoderThreads must be >= 0: " + encoderThreads);
            }
        }

        /** Every packet encoded on the sink's thread. */
        public Options(
                boolean annotations,
                long realtimeOffsetNs,
                long boottimeOffsetNs,
                String executable,
                long timestampUnitNs,
                RegionAnnotations regionValues) {
            this(annotations, realtimeOffsetNs, boottimeOffsetNs, executable, timestampUnitNs, regionValues, 0);
        }

        /** The encoder threads for a trace written on this machine ({@link SegmentEncoders#threadsFor}). */
        public static int encoderThreadsHere() {
            return SegmentEncoders.threadsFor(Runtime.getRuntime().availableProcessors());
        }

        public Options(
                boolean annotations,
                long realtimeOffsetNs,
                long boottimeOffsetNs,
                String executable,
                long timestampUnitNs) {
            this(annotations, realtimeOffsetNs, boottimeOffsetNs, executable, timestampUnitNs, RegionAnnotations.NONE);
        }

        /** Nanosecond timestamps, BOOTTIME taken equal to MONOTONIC. */
        public Options(boolean annotations, long realtimeOffsetNs, String executable) {
            this(annotations, realtimeOffsetNs, 0, executable, 1);
        }
    }

    /** The sequence-scoped incremental clock of every thread sequence (Perfetto SDK's choice too). */
    public static final int SEQUENCE_CLOCK_ID = 64;
    /** Sequence of the clock snapshot and the process tracks. */
    public static final int GLOBAL_SEQUENCE_ID = 1;
    /** The outer slice of each sample on a sampled thread's track, as upstream names it. */
    public static final String SAMPLES_SLICE = "samples [rocprof-sys]";

    /** Debug annotation on slices the profiler closed because their thread or process died. */
    public static final String CLOSED_BY_PROFILER = "closed_by_profiler";
    /** Category of the instants the profiler adds itself (fork, dropped records). */
    public static final String PROFILER_CATEGORY = "rocprof-sys";

    private static final int CLOCK_REALTIME = ClockSnapshot.Clock.BuiltinClocks.REALTIME_VALUE;
    private static final int CLOCK_MONOTONIC = ClockSnapshot.Clock.BuiltinClocks.MONOTONIC_VALUE;
    private static final int CLOCK_BOOTTIME = ClockSnapshot.Clock.BuiltinClocks.BOOTTIME_VALUE;
    private static final Consumer<TrackEvent.Builder> NO_FLOW = FlowWriter.NONE;

    private final Options options;

    private final OutputStream file;
    private final PacketBuffer out;
    /** Which track each event goes on; each track described once. */
    private final TrackRegistry tracks;
    /** Region slices, instants and sampled stacks of thread tracks. */
    private final SliceWriter slices;
    /** Counter values on counter tracks. */
    private final CounterWriter counters;

    /** Long stretches of one thread's region runs encoded on other threads; null when there are none. */
    private final SegmentEncoders segments;

    // the GPU writer's state (docs/gpu.md "Tracks"); the registry's maps it reads under their old names
    /** Each thread's number from its ThreadStarted ({@link TrackRegistry#threadSequences}). */
    private final Map<Long, Integer> threadSequences;
    /** The tracks of processes that ended ({@link TrackRegistry#endedProcesses}). */
    private final Map<Integer, ProcessTrack> endedProcesses;
    /** GPU activity tracks by process and {@link org.rocprofsys.core.gpu.DeviceTrack#key}. */
    private final Map<String, ThreadTrack> gpuStreams = new HashMap<>();
    /** Bytes allocated on each device of each process, by {@link GpuTracks#deviceKey}. */
    private final Map<Long, Long> gpuAllocated = new HashMap<>();
    /** Page faults of each device of each process so far, by {@link GpuTracks#deviceKey}. */
    private final Map<Long, Long> gpuPageFaults = new HashMap<>();

    private boolean started;
    private boolean finished;

    public PerfettoSink(Path output, Options options) throws IOException {
        this(Files.newOutputStream(output), options);
    }

    /** Writes to {@code stream} (e.g. a {@link TraceBudget}, told its packets' kinds), which {@link #finish} closes. */
    public PerfettoSink(OutputStream stream, Options options) {
        this(stream, options, stream instanceof TraceBudget b ? b.kinds() : null);
    }

    /**
     * Writes to {@code stream}, on its way to a budget (e.g. through a thread of its own) that
     * {@code kinds} tells of each packet's kind; null when the budget needs none.
     */
    PerfettoSink(OutputStream stream, Options options, TraceBudget.PacketKinds kinds) {
        this(stream, options, kinds, SegmentEncoders.SEGMENT_REGIONS, SegmentEncoders.MIN_SEGMENT_REGIONS);
    }

    /** With segments of other sizes for the encoder threads (tests). */
    PerfettoSink(OutputStream stream, Options options, int segmentRegions, int minSegmentRegions) {
        this(stream, options, null, segmentRegions, minSegmentRegions);
    }

    private PerfettoSink(
            OutputStream stream,
            Options options,
            TraceBudget.PacketKinds kinds,
            int segmentRegions,
            int minSegmentRegions) {
        this.options = Objects.requireNonNull(options, "options");
        this.file = Objects.requireNonNull(stream, "stream");
        this.segments = options.encoderThreads() > 0
                ? new SegmentEncoders(file, options, options.encoderThreads(), segmentRegions, minSegmentRegions)
                : null;
        // whole packets go to the stream in writes of up to 64 KiB (after the segments before them)
        this.out = new PacketBuffer(segments != null ? segments.ordered() : file);
        if (kinds != null) {
            if (segments != null) { // a segment's packets would move the offsets told
                throw new IllegalArgumentException("a budget told of packet kinds takes no encoder threads");
            }
            out.tell(kinds);
        }
        this.tracks = new TrackRegistry(out, options);
        this.slices = new SliceWriter(out, options, tracks, segments);
        this.counters = new CounterWriter(out, tracks);
        this.threadSequences = tracks.threadSequences;
        this.endedProcesses = tracks.endedProcesses;
    }

    @Override
    public void accept(SinkEvent event) throws IOException {
        if (slices.segmentOpen()) {
            slices.closeSegment();
        }
        // regions are nearly every event: tested first by their exact (final) classes, before the
        // general switch and its timestamp read through the interface
        if (started && !finished) {
            if (event instanceof RegionBegin b) {
                slices.regionBegin(b, NO_FLOW);
                return;
            }
            if (event instanceof RegionEnd e) {
                slices.regionEnd(e);
                return;
            }
        }
        accept(event, NO_FLOW);
    }

    /**
     * Like {@link #accept} for a {@link RegionBegin} or {@link Mark} that is part of a flow, e.g.
     * a GPU API call (flow start) and the kernel dispatch it caused (flow end). Flow ids are global
     * in the trace; the UI draws an arrow from the earliest event of an id to the later ones.
     *
     * @param terminating true to end the flow at this event (upstream's kernel dispatch side)
     */
    public void acceptWithFlow(SinkEvent event, long flowId, boolean terminating) throws IOException {
        if (!(event instanceof RegionBegin) && !(event instanceof Mark)) {
            throw new IllegalArgumentException("flows attach to RegionBegin or Mark, not " + event);
        }
        slices.closeSegment();
        accept(event, FlowWriter.of(flowId, terminating));
    }

    private void accept(SinkEvent event, Consumer<TrackEvent.Builder> flow) throws IOException {
        if (finished) {
            throw new IllegalStateException("event after finish: " + event);
        }
        if (!started) {
            start(event.timestampNs());
        }
        switch (event) {
            case ProcessStarted p -> processStarted(p);
            case ProcessEnded p -> tracks.processEnded(p.pid());
            case ThreadStarted t -> tracks.threadStarted(t);
            case ThreadEnded t -> tracks.threadEnded(t.pid(), t.tid());
            case RegionBegin b -> slices.regionBegin(b, flow);
            case RegionEnd e -> slices.regionEnd(e);
            case Mark m -> slices.mark(m, flow);
            case Fork f -> slices.fork(f);
            case RecordsDropped r -> slices.recordsDropped(r);
            case CounterSample c -> counter(c);
            case StackSample s -> slices.stackSample(s);
            case GpuActivity g -> gpu(g.event());
        }
    }

    @Override
    public void finish(RunSummary summary) throws IOException {
        if (finished) {
            return;
        }
        finished = true;
        try (OutputStream f = file) {
            slices.closeSegment();
            start(summary.endNs());
            out.handOn();
            if (segments != null) {
                segments.finish();
            }
        } finally {
            if (segments != null) {
                segments.abandon(); // after a failure: the workers stop
            }
            tracks.clear();
        }
    }

    /** A run of plain regions: the same packets as its events one by one, read from its arrays. */
    @Override
    public void acceptRegions(RegionRun run) throws IOException {
        if (!started || finished) {
            EventSink.super.acceptRegions(run); // the trace starts at (or refuses) the first event
            return;
        }
        slices.regions(run);
    }

    /** Stops the encoder threads of a trace that will not be finished (its file failed). */
    public void abandon() {
        if (segments != null) {
            segments.abandon();
        }
    }

    private void processStarted(ProcessStarted p) throws IOException {
        if (tracks.processStarted(p)) { // a new image of the pid (exec): its device tracks start anew
            gpuStreams.keySet().removeIf(k -> k.startsWith(p.pid() + "/"));
        }
    }

    // ---- the writers' helpers, as the GPU methods below call them ----------------------------

    /** The thread's track, ready for a packet written here. */
    private ThreadTrack thread(int pid, int tid, long timestampNs) throws IOException {
        return slices.thread(pid, tid, timestampNs);
    }

    private ProcessTrack process(int pid, long timestampNs) throws IOException {
        return tracks.process(pid, timestampNs);
    }

    /** Starts a packet sequence: clears its state, sets its defaults and defines its clock. */
    private ThreadTrack openSequence(int pid, long timestampNs) throws IOException {
        return tracks.openSequence(pid, timestampNs);
    }

    private void counter(CounterSample c) throws IOException {
        counters.write(c);
    }

    private void instant(ThreadTrack t, long ns, String category, String name, Consumer<TrackEvent.Builder> extra)
            throws IOException {
        slices.instant(t, ns, category, name, extra);
    }

    private void emit(ThreadTrack t, long timestampNs, TrackEvent.Builder ev) throws IOException {
        slices.emit(t, timestampNs, ev);
    }

    /** Upstream's begin_ns/end_ns are CLOCK_REALTIME ns (its tracing::now()). */
    private long realtime(long monotonicNs) {
        return slices.realtime(monotonicNs);
    }

    private static DebugAnnotation.Builder annotation(ThreadTrack t, String name) {
        return SliceWriter.annotation(t, name);
    }

    private void write(TracePacket packet) throws IOException {
        out.write(packet);
    }

    private static long key(int pid, int tid) {
        return TrackRegistry.key(pid, tid);
    }

    // ---- GPU activity (docs/gpu.md "Tracks") -------------------------------------------------

    private void gpu(GpuEvent event) throws IOException {
        switch (event) {
            case GpuApiCall c -> gpuApiCall(c);
            case GpuMarker m -> gpuMarker(m);
            case GpuKernel k ->
                gpuDeviceWork(k.pid(), k.placement(), k.name(), k.correlationId(), k.beginNs(), k.endNs());
            case GpuMemoryCopy c ->
                gpuDeviceWork(
                        c.pid(), c.placement(), c.kind().operationName(), c.correlationId(), c.beginNs(), c.endNs());
            case GpuMemorySet s ->
                gpuDeviceWork(s.pid(), s.placement(), GpuTracks.MEMSET_NAME, s.correlationId(), s.beginNs(), s.endNs());
            case GpuScratchMemory s -> gpuDeviceWork(s.pid(), s.placement(), s.operation(), 0, s.beginNs(), s.endNs());
            case GpuMemoryAllocation a -> gpuAllocation(a);
            case GpuDevice d -> {
                // listed in metadata.json, no track of its own
            }
            case GpuSynchronization s -> {
                // the waiting host call is on its thread already (cudaDeviceSynchronize & co.)
            }
            case GpuPageMigration m -> gpuMigration(m);
            case GpuPageFault f -> gpuPageFaults(f);
            case GpuCounterSample s -> gpuCounter(s);
        }
    }

    /**
     * A unified-memory migration: a slice on the device's migration track, and its throughput
     * (bytes over the migration's time, GB/s) on a counter that falls back to 0 when it ends.
     */
    private void gpuMigration(GpuPageMigration m) throws IOException {
        ThreadTrack t = gpuTrack(
                m.pid(), "um/" + m.pid() + "/" + m.device(), GpuTracks.migrationTrackName(m.device()), m.beginNs());
        TrackEvent.Builder begin =
                gpuSliceBegin(t, GpuTracks.MIGRATION_CATEGORY, m.direction().title(), m.beginNs(), m.endNs());
        begin.addDebugAnnotations(annotation(t, "bytes").setUintValue(m.bytes()))
                .addDebugAnnotations(annotation(t, "address").setPointerValue(m.address()))
                .addDebugAnnotations(
                        annotation(t, "trigger").setStringValue(m.trigger().key()))
                .addDebugAnnotations(annotation(t, "device").setIntValue(m.device()));
        gpuSlice(t, begin, m.beginNs(), m.endNs());
        CounterTrack throughput = new CounterTrack(
                GpuTracks.migrationThroughputTrackName(m.device()),
                GpuTracks.THROUGHPUT_UNIT,
                GpuTracks.MIGRATION_COUNTERS,
                m.pid());
        double gbPerSecond = m.durationNs() > 0 ? (double) m.bytes() / m.durationNs() : 0.0;
        counter(new CounterSample(m.beginNs(), throughput, gbPerSecond));
        counter(new CounterSample(Math.max(m.beginNs(), m.endNs()), throughput, 0.0));
    }

    /** The page faults of a device so far, as a counter. */
    private void gpuPageFaults(GpuPageFault f) throws IOException {
        long key = GpuTracks.deviceKey(f.pid(), f.device());
        long faults = gpuPageFaults.merge(key, f.count(), Long::sum);
        counter(new CounterSample(
                f.beginNs(),
                new CounterTrack(GpuTracks.pageFaultTrackName(f.device()), "", GpuTracks.MIGRATION_COUNTERS, f.pid()),
                faults));
    }

    /**
     * A kernel's counter value, as upstream's {@code counter_event}: the value at the kernel's
     * begin and 0 at its end, so the track reads as one step per kernel.
     */
    private void gpuCounter(GpuCounterSample s) throws IOException {
        CounterTrack track = new CounterTrack(
                GpuTracks.counterTrackName(s.metricKey(), s.device()), "", GpuTracks.KERNEL_COUNTERS, s.pid());
        counter(new CounterSample(s.beginNs(), track, s.value()));
        if (s.endNs() > s.beginNs()) {
            counter(new CounterSample(s.endNs(), track, 0.0));
        }
    }

    /** On the calling thread: one slice, with a flow to the device work it launched. */
    private void gpuApiCall(GpuApiCall c) throws IOException {
        ThreadTrack t = thread(c.pid(), c.tid(), c.beginNs());
        TrackEvent.Builder begin = gpuSliceBegin(t, c.domain().category(), c.function(), c.beginNs(), c.endNs());
        begin.addDebugAnnotations(annotation(t, "corr_id").setUintValue(c.correlationId()));
        if (c.streamId() >= 0) {
            begin.addDebugAnnotations(annotation(t, "stream_id").setUintValue(c.streamId()));
        }
        for (org.rocprofsys.core.gpu.GpuArgument a : c.arguments()) {
            begin.addDebugAnnotations(annotation(t, a.name()).setStringValue(a.value()));
        }
        if (c.correlationId() != 0 && c.domain().startsFlow(c.function())) {
            begin.addFlowIds(GpuTracks.flowId(c.pid(), c.correlationId()));
        }
        gpuSlice(t, begin, c.beginNs(), c.endNs());
    }

    /** Marker ranges (NVTX) on the thread that opened them; marks as instants. */
    private void gpuMarker(GpuMarker m) throws IOException {
        ThreadTrack t = thread(m.pid(), m.tid(), m.beginNs());
        String name = Objects.requireNonNullElse(m.message(), "");
        String category = m.api().category();
        if (!m.range()) {
            instant(t, m.beginNs(), category, name, ev -> {
                if (!m.domain().isEmpty()) {
                    ev.addDebugAnnotations(annotation(t, "domain").setStringValue(m.domain()));
                }
            });
            return;
        }
        TrackEvent.Builder begin = gpuSliceBegin(t, category, name, m.beginNs(), m.endNs());
        if (!m.domain().isEmpty()) {
            begin.addDebugAnnotations(annotation(t, "domain").setStringValue(m.domain()));
        }
        if (m.closedByProfiler()) {
            begin.addDebugAnnotations(annotation(t, CLOSED_BY_PROFILER).setBoolValue(true));
        }
        gpuSlice(t, begin, m.beginNs(), m.endNs());
    }

    /**
     * Device work (a kernel, copy, memset, scratch operation) on the track its backend placed it
     * on, with the backend's category and annotations; it ends the flow its launching API call
     * started.
     */
    private void gpuDeviceWork(
            int pid, DevicePlacement placement, String name, long correlationId, long beginNs, long endNs)
            throws IOException {
        ThreadTrack t = gpuTrack(pid, placement.track(), beginNs);
        TrackEvent.Builder begin = gpuSliceBegin(t, placement.category(), name, beginNs, endNs);
        for (GpuAnnotation a : placement.annotations()) {
            DebugAnnotation.Builder d = annotation(t, a.name());
            switch (a.kind()) {
                case UINT -> d.setUintValue(a.number());
                case INT -> d.setIntValue(a.number());
                case STRING -> d.setStringValue(a.text());
            }
            begin.addDebugAnnotations(d);
        }
        if (correlationId != 0) {
            begin.addTerminatingFlowIds(GpuTracks.flowId(pid, correlationId));
        }
        gpuSlice(t, begin, beginNs, endNs);
    }

    /** The bytes allocated on the device, after this allocation or free, as a counter. */
    private void gpuAllocation(GpuMemoryAllocation a) throws IOException {
        long key = GpuTracks.deviceKey(a.pid(), a.device());
        long bytes = Math.max(0, gpuAllocated.getOrDefault(key, 0L) + (a.free() ? -a.bytes() : a.bytes()));
        gpuAllocated.put(key, bytes);
        counter(new CounterSample(
                a.timestampNs(),
                new CounterTrack(GpuTracks.memoryTrackName(a.device()), GpuTracks.MEMORY_UNIT, Category.NONE, a.pid()),
                bytes / GpuTracks.BYTES_PER_UNIT));
    }

    private TrackEvent.Builder gpuSliceBegin(ThreadTrack t, String category, String name, long beginNs, long endNs) {
        TrackEvent.Builder ev = TrackEvent.newBuilder()
                .setType(TrackEvent.Type.TYPE_SLICE_BEGIN)
                .addCategoryIids(t.categoryIid(category))
                .setNameIid(t.nameIid(Objects.requireNonNullElse(name, "")));
        if (options.annotations()) {
            ev.addDebugAnnotations(annotation(t, "begin_ns").setUintValue(realtime(beginNs)))
                    .addDebugAnnotations(annotation(t, "end_ns").setUintValue(realtime(endNs)));
        }
        return ev;
    }

    /**
     * A complete slice, written at once: GPU events arrive complete and out of time order, so the
     * track's depth (which balances the pipeline's region events) is left alone, and an event
     * earlier than the track's last one is stamped with an absolute time ({@link #emit}).
     */
    private void gpuSlice(ThreadTrack t, TrackEvent.Builder begin, long beginNs, long endNs) throws IOException {
        emit(t, beginNs, begin);
        emit(t, Math.max(beginNs, endNs), TrackEvent.newBuilder().setType(TrackEvent.Type.TYPE_SLICE_END));
    }

    /**
     * The track a backend placed device work on, by the process and the track's key; its name
     * ends with the thread's number where the backend asks for one.
     */
    private ThreadTrack gpuTrack(int pid, DeviceTrack track, long timestampNs) throws IOException {
        String key = pid + "/" + track.key();
        ThreadTrack t = gpuStreams.get(key);
        if (t != null) {
            return t;
        }
        String name = track.name();
        if (track.numberedTid() >= 0) {
            int tid = track.numberedTid();
            name += threadSequences.getOrDefault(key(pid, tid), tid == pid ? 0 : tid);
        }
        return gpuTrack(pid, key, name, timestampNs);
    }

    /** A GPU slice track of a process, made the first time its key is seen. */
    private ThreadTrack gpuTrack(int pid, String key, String name, long timestampNs) throws IOException {
        ThreadTrack t = gpuStreams.get(key);
        if (t != null) {
            return t;
        }
        ProcessTrack proc = endedProcesses.containsKey(pid) ? endedProcesses.get(pid) : process(pid, timestampNs);
        t = openSequence(pid, timestampNs);
        gpuStreams.put(key, t);
        write(TracePacket.newBuilder()
                .setTimestamp(0)
                .setTrustedPacketSequenceId(t.sequenceId)
                .setTrackDescriptor(TrackDescriptor.newBuilder()
                        .setUuid(t.uuid)
                        .setParentUuid(proc.uuid)
                        .setName(name))
                .build());
        return t;
    }

    // ---- the trace's start -------------------------------------------------------------------

    /** Writes the clock snapshot once, before anything else. */
    private void start(long timestampNs) throws IOException {
        if (started) {
            return;
        }
        started = true;
        write(TracePacket.newBuilder()
                .setTrustedPacketSequenceId(GLOBAL_SEQUENCE_ID)
                .setSequenceFlags(TracePacket.SequenceFlags.SEQ_INCREMENTAL_STATE_CLEARED_VALUE)
                .setTracePacketDefaults(TracePacketDefaults.newBuilder().setTimestampClockId(CLOCK_MONOTONIC))
                .setClockSnapshot(ClockSnapshot.newBuilder()
                        .addClocks(clock(CLOCK_BOOTTIME, timestampNs + options.boottimeOffsetNs()))
                        .addClocks(clock(CLOCK_MONOTONIC, timestampNs))
                        .addClocks(clock(CLOCK_REALTIME, timestampNs + options.realtimeOffsetNs())))
                .build());
    }

    private static ClockSnapshot.Clock.Builder clock(int id, long timestamp) {
        return ClockSnapshot.Clock.newBuilder().setClockId(id).setTimestamp(timestamp);
    }

    /** A process image's track: its uuid, and the executable that names its main thread. */
    record ProcessTrack(long uuid, String executable) {}
}
