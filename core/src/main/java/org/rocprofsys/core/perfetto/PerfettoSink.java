package org.rocprofsys.core.perfetto;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Consumer;
import org.rocprofsys.core.event.CounterSample;
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
import org.rocprofsys.core.perfetto.proto.ClockSnapshot;
import org.rocprofsys.core.perfetto.proto.TracePacket;
import org.rocprofsys.core.perfetto.proto.TracePacketDefaults;
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
 * values), {@link FlowWriter} (flow ids on events), {@link GpuWriter} (GPU activity: device work,
 * API calls, markers, GPU counter tracks).
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

    /** GPU activity: device work, API calls, markers, GPU counters, flows by correlation id. */
    private final GpuWriter gpu;

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
        this.gpu = new GpuWriter(options, tracks, slices, counters);
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
            case CounterSample c -> counters.write(c);
            case StackSample s -> slices.stackSample(s);
            case GpuActivity g -> gpu.accept(g.event());
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
            gpu.newImage(p.pid());
        }
    }

    // ---- the trace's start -------------------------------------------------------------------

    /** Writes the clock snapshot once, before anything else. */
    private void start(long timestampNs) throws IOException {
        if (started) {
            return;
        }
        started = true;
        out.write(TracePacket.newBuilder()
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
