package org.rocprofsys.core.perfetto;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.event.CounterTrack;
import org.rocprofsys.core.gpu.DevicePlacement;
import org.rocprofsys.core.gpu.GpuAnnotation;
import org.rocprofsys.core.gpu.GpuApiCall;
import org.rocprofsys.core.gpu.GpuArgument;
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
import org.rocprofsys.core.perfetto.proto.DebugAnnotation;
import org.rocprofsys.core.perfetto.proto.TrackEvent;

/**
 * GPU activity (docs/gpu.md "Tracks"): device work (kernels, copies, memsets, scratch operations)
 * on the track its backend placed it on, API calls and markers on the calling thread's track, the
 * bytes allocated per device, unified-memory migrations and page faults and per-kernel hardware
 * counters on their counter tracks, and a flow per correlation id from the API call to the device
 * work it launched.
 *
 * <p>GPU events arrive complete and out of time order: each is one whole slice, written at once,
 * with the track's depth (which balances the pipeline's region events) left alone.
 */
final class GpuWriter {
    private final PerfettoSink.Options options;
    private final TrackRegistry tracks;
    private final SliceWriter slices;
    private final CounterWriter counters;

    /** Device-work and migration tracks by their key ({@code pid/}{@link org.rocprofsys.core.gpu.DeviceTrack#key}). */
    private final Map<String, ThreadTrack> deviceTracks = new HashMap<>();
    /** Bytes allocated on each device of each process, by {@link GpuTracks#deviceKey}. */
    private final Map<Long, Long> allocated = new HashMap<>();
    /** Page faults of each device of each process so far, by {@link GpuTracks#deviceKey}. */
    private final Map<Long, Long> pageFaults = new HashMap<>();

    GpuWriter(PerfettoSink.Options options, TrackRegistry tracks, SliceWriter slices, CounterWriter counters) {
        this.options = options;
        this.tracks = tracks;
        this.slices = slices;
        this.counters = counters;
    }

    void accept(GpuEvent event) throws IOException {
        switch (event) {
            case GpuApiCall c -> apiCall(c);
            case GpuMarker m -> marker(m);
            case GpuKernel k -> deviceWork(k.pid(), k.placement(), k.name(), k.correlationId(), k.beginNs(), k.endNs());
            case GpuMemoryCopy c ->
                deviceWork(c.pid(), c.placement(), c.kind().operationName(), c.correlationId(), c.beginNs(), c.endNs());
            case GpuMemorySet s ->
                deviceWork(s.pid(), s.placement(), GpuTracks.MEMSET_NAME, s.correlationId(), s.beginNs(), s.endNs());
            case GpuScratchMemory s -> deviceWork(s.pid(), s.placement(), s.operation(), 0, s.beginNs(), s.endNs());
            case GpuMemoryAllocation a -> allocation(a);
            case GpuDevice d -> {
                // listed in metadata.json, no track of its own
            }
            case GpuSynchronization s -> {
                // the waiting host call is on its thread already (cudaDeviceSynchronize & co.)
            }
            case GpuPageMigration m -> migration(m);
            case GpuPageFault f -> pageFaults(f);
            case GpuCounterSample s -> counter(s);
        }
    }

    /** A new image of the pid (exec): its device tracks start anew. */
    void newImage(int pid) {
        deviceTracks.keySet().removeIf(k -> k.startsWith(pid + "/"));
    }

    /**
     * Device work (a kernel, copy, memset, scratch operation) on the track its backend placed it
     * on, with the backend's category and annotations; it ends the flow its launching API call
     * started.
     */
    private void deviceWork(
            int pid, DevicePlacement placement, String name, long correlationId, long beginNs, long endNs)
            throws IOException {
        ThreadTrack t = track(
                pid,
                pid + "/" + placement.track().key(),
                placement.track().name(),
                placement.track().numberedTid(),
                beginNs);
        TrackEvent.Builder begin = sliceBegin(t, placement.category(), name, beginNs, endNs);
        for (GpuAnnotation a : placement.annotations()) {
            DebugAnnotation.Builder d = SliceWriter.annotation(t, a.name());
            switch (a.kind()) {
                case UINT -> d.setUintValue(a.number());
                case INT -> d.setIntValue(a.number());
                case STRING -> d.setStringValue(a.text());
            }
            begin.addDebugAnnotations(d);
        }
        if (correlationId != 0) {
            FlowWriter.add(begin, GpuTracks.flowId(pid, correlationId), true);
        }
        slice(t, begin, beginNs, endNs);
    }

    /** On the calling thread: one slice, with a flow to the device work it launched. */
    private void apiCall(GpuApiCall c) throws IOException {
        ThreadTrack t = slices.thread(c.pid(), c.tid(), c.beginNs());
        TrackEvent.Builder begin = sliceBegin(t, c.domain().category(), c.function(), c.beginNs(), c.endNs());
        begin.addDebugAnnotations(SliceWriter.annotation(t, "corr_id").setUintValue(c.correlationId()));
        if (c.streamId() >= 0) {
            begin.addDebugAnnotations(SliceWriter.annotation(t, "stream_id").setUintValue(c.streamId()));
        }
        for (GpuArgument a : c.arguments()) {
            begin.addDebugAnnotations(SliceWriter.annotation(t, a.name()).setStringValue(a.value()));
        }
        if (c.correlationId() != 0 && c.domain().startsFlow(c.function())) {
            FlowWriter.add(begin, GpuTracks.flowId(c.pid(), c.correlationId()), false);
        }
        slice(t, begin, c.beginNs(), c.endNs());
    }

    /** Marker ranges (NVTX) on the thread that opened them; marks as instants. */
    private void marker(GpuMarker m) throws IOException {
        ThreadTrack t = slices.thread(m.pid(), m.tid(), m.beginNs());
        String name = Objects.requireNonNullElse(m.message(), "");
        String category = m.api().category();
        if (!m.range()) {
            slices.instant(t, m.beginNs(), category, name, ev -> {
                if (!m.domain().isEmpty()) {
                    ev.addDebugAnnotations(SliceWriter.annotation(t, "domain").setStringValue(m.domain()));
                }
            });
            return;
        }
        TrackEvent.Builder begin = sliceBegin(t, category, name, m.beginNs(), m.endNs());
        if (!m.domain().isEmpty()) {
            begin.addDebugAnnotations(SliceWriter.annotation(t, "domain").setStringValue(m.domain()));
        }
        if (m.closedByProfiler()) {
            begin.addDebugAnnotations(
                    SliceWriter.annotation(t, PerfettoSink.CLOSED_BY_PROFILER).setBoolValue(true));
        }
        slice(t, begin, m.beginNs(), m.endNs());
    }

    /**
     * A unified-memory migration: a slice on the device's migration track, and its throughput
     * (bytes over the migration's time, GB/s) on a counter that falls back to 0 when it ends.
     */
    private void migration(GpuPageMigration m) throws IOException {
        // keyed apart from the device-work tracks: an exec of the pid keeps it
        ThreadTrack t = track(
                m.pid(), "um/" + m.pid() + "/" + m.device(), GpuTracks.migrationTrackName(m.device()), -1, m.beginNs());
        TrackEvent.Builder begin =
                sliceBegin(t, GpuTracks.MIGRATION_CATEGORY, m.direction().title(), m.beginNs(), m.endNs());
        begin.addDebugAnnotations(SliceWriter.annotation(t, "bytes").setUintValue(m.bytes()))
                .addDebugAnnotations(SliceWriter.annotation(t, "address").setPointerValue(m.address()))
                .addDebugAnnotations(SliceWriter.annotation(t, "trigger")
                        .setStringValue(m.trigger().key()))
                .addDebugAnnotations(SliceWriter.annotation(t, "device").setIntValue(m.device()));
        slice(t, begin, m.beginNs(), m.endNs());
        CounterTrack throughput = new CounterTrack(
                GpuTracks.migrationThroughputTrackName(m.device()),
                GpuTracks.THROUGHPUT_UNIT,
                GpuTracks.MIGRATION_COUNTERS,
                m.pid());
        double gbPerSecond = m.durationNs() > 0 ? (double) m.bytes() / m.durationNs() : 0.0;
        counters.write(new CounterSample(m.beginNs(), throughput, gbPerSecond));
        counters.write(new CounterSample(Math.max(m.beginNs(), m.endNs()), throughput, 0.0));
    }

    /** The page faults of a device so far, as a counter. */
    private void pageFaults(GpuPageFault f) throws IOException {
        long faults = pageFaults.merge(GpuTracks.deviceKey(f.pid(), f.device()), f.count(), Long::sum);
        counters.write(new CounterSample(
                f.beginNs(),
                new CounterTrack(GpuTracks.pageFaultTrackName(f.device()), "", GpuTracks.MIGRATION_COUNTERS, f.pid()),
                faults));
    }

    /**
     * A kernel's counter value, as upstream's {@code counter_event}: the value at the kernel's
     * begin and 0 at its end, so the track reads as one step per kernel.
     */
    private void counter(GpuCounterSample s) throws IOException {
        CounterTrack track = new CounterTrack(
                GpuTracks.counterTrackName(s.metricKey(), s.device()), "", GpuTracks.KERNEL_COUNTERS, s.pid());
        counters.write(new CounterSample(s.beginNs(), track, s.value()));
        if (s.endNs() > s.beginNs()) {
            counters.write(new CounterSample(s.endNs(), track, 0.0));
        }
    }

    /** The bytes allocated on the device, after this allocation or free, as a counter. */
    private void allocation(GpuMemoryAllocation a) throws IOException {
        long key = GpuTracks.deviceKey(a.pid(), a.device());
        long bytes = Math.max(0, allocated.getOrDefault(key, 0L) + (a.free() ? -a.bytes() : a.bytes()));
        allocated.put(key, bytes);
        counters.write(new CounterSample(
                a.timestampNs(),
                new CounterTrack(GpuTracks.memoryTrackName(a.device()), GpuTracks.MEMORY_UNIT, Category.NONE, a.pid()),
                bytes / GpuTracks.BYTES_PER_UNIT));
    }

    private TrackEvent.Builder sliceBegin(ThreadTrack t, String category, String name, long beginNs, long endNs) {
        TrackEvent.Builder ev = SliceWriter.event(t, TrackEvent.Type.TYPE_SLICE_BEGIN, category, name);
        if (options.annotations()) {
            ev.addDebugAnnotations(SliceWriter.annotation(t, "begin_ns").setUintValue(slices.realtime(beginNs)))
                    .addDebugAnnotations(SliceWriter.annotation(t, "end_ns").setUintValue(slices.realtime(endNs)));
        }
        return ev;
    }

    /**
     * A complete slice, written at once: the track's depth is left alone, and an event earlier
     * than the track's last one is stamped with an absolute time ({@link SliceWriter#emit}).
     */
    private void slice(ThreadTrack t, TrackEvent.Builder begin, long beginNs, long endNs) throws IOException {
        slices.emit(t, beginNs, begin);
        slices.emit(t, Math.max(beginNs, endNs), TrackEvent.newBuilder().setType(TrackEvent.Type.TYPE_SLICE_END));
    }

    /**
     * A GPU slice track of a process, made the first time its key is seen; its name ends with
     * thread {@code numberedTid}'s number where the backend asks for one ({@code >= 0}).
     */
    private ThreadTrack track(int pid, String key, String name, int numberedTid, long timestampNs) throws IOException {
        ThreadTrack t = deviceTracks.get(key);
        if (t == null) {
            String full = numberedTid < 0 ? name : name + tracks.threadNumber(pid, numberedTid, numberedTid);
            t = tracks.named(pid, full, timestampNs);
            deviceTracks.put(key, t);
        }
        return t;
    }
}
