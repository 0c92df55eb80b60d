package org.rocprofsys.core.perfetto;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.rocprofsys.core.event.CounterTrack;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.perfetto.proto.CounterDescriptor;
import org.rocprofsys.core.perfetto.proto.ProcessDescriptor;
import org.rocprofsys.core.perfetto.proto.ThreadDescriptor;
import org.rocprofsys.core.perfetto.proto.TracePacket;
import org.rocprofsys.core.perfetto.proto.TrackDescriptor;
import org.rocprofsys.core.tracker.ThreadTable;

/**
 * The trace's tracks: which track (and packet sequence) each event goes on, each made with its
 * descriptor the first time it is needed. Process tracks and counter tracks are on the global
 * sequence; every thread track, sampled-stack track and device track has a sequence of its own.
 * Uuids and sequence ids are given here, in the order the tracks are made.
 *
 * <p>The writers ({@link SliceWriter}, {@link CounterWriter}, {@link GpuWriter}) ask it for
 * their track and write on it; it writes nothing but descriptors and sequence starts.
 */
final class TrackRegistry {
    private final PacketBuffer out;
    private final PerfettoSink.Options options;

    private final Map<Integer, PerfettoSink.ProcessTrack> processes = new HashMap<>();
    private final ThreadTable<ThreadTrack> threads = new ThreadTable<>();
    /** The tracks of sampled call stacks, by thread. */
    private final ThreadTable<ThreadTrack> sampledThreads = new ThreadTable<>();
    /** The tracks of overflow samples, by thread. */
    private final ThreadTable<ThreadTrack> overflowThreads = new ThreadTable<>();
    /** Each thread's number from its ThreadStarted, by {@link #key}. */
    private final Map<Long, Integer> threadSequences = new HashMap<>();
    /**
     * The tracks of processes that ended: the sampler's events of a process can reach the sink
     * after its end (they come from another source), and must go under its track, not a new one.
     */
    private final Map<Integer, PerfettoSink.ProcessTrack> endedProcesses = new HashMap<>();
    /** Counter tracks by name, with their uuid; their samples go on the global sequence. */
    private final Map<String, Long> counters = new HashMap<>();

    private long nextUuid = 1;
    private int nextSequenceId = PerfettoSink.GLOBAL_SEQUENCE_ID + 1;

    TrackRegistry(PacketBuffer out, PerfettoSink.Options options) {
        this.out = out;
        this.options = options;
    }

    static long key(int pid, int tid) {
        return ThreadTable.key(pid, tid);
    }

    // ---- lifetimes ---------------------------------------------------------------------------

    /**
     * A process image's track, described now.
     *
     * @return whether the pid had ended before (a new image, exec): its device tracks start anew
     */
    boolean processStarted(ProcessStarted p) throws IOException {
        boolean newImage = endedProcesses.remove(p.pid()) != null;
        if (newImage) {
            sampledThreads.removeProcess(p.pid(), (k, t) -> {});
            overflowThreads.removeProcess(p.pid(), (k, t) -> {});
        }
        String exe = basename(p.executable());
        if (exe.isEmpty()) {
            exe = options.executable();
        }
        PerfettoSink.ProcessTrack proc = new PerfettoSink.ProcessTrack(nextUuid++, exe);
        processes.put(p.pid(), proc);
        ProcessDescriptor.Builder pd =
                ProcessDescriptor.newBuilder().setPid(p.pid()).setProcessName(exe);
        if (p.commandLine() != null) {
            pd.addAllCmdline(p.commandLine());
        }
        writeProcessTrack(p.timestampNs(), proc, pd);
        return newImage;
    }

    void processEnded(int pid) {
        threads.removeProcess(pid, (k, t) -> {});
        PerfettoSink.ProcessTrack ended = processes.remove(pid);
        if (ended != null) {
            endedProcesses.put(pid, ended);
        }
    }

    void threadStarted(ThreadStarted t) throws IOException {
        threads.remove(t.pid(), t.tid()); // a new thread of that number: a new track
        threadSequences.put(key(t.pid(), t.tid()), t.sequence());
        String name = t.sequence() == 0 ? process(t.pid(), t.timestampNs()).executable() : "Thread " + t.sequence();
        newThread(t.pid(), t.tid(), name, t.timestampNs());
    }

    void threadEnded(int pid, int tid) {
        threads.remove(pid, tid);
    }

    /** After the trace's last packet. */
    void clear() {
        threads.clear();
        processes.clear();
    }

    // ---- tracks ------------------------------------------------------------------------------

    /** The process's track, made when new (events of a process whose ProcessStarted was not seen). */
    PerfettoSink.ProcessTrack process(int pid, long timestampNs) throws IOException {
        PerfettoSink.ProcessTrack proc = processes.get(pid);
        if (proc == null) {
            proc = new PerfettoSink.ProcessTrack(nextUuid++, options.executable());
            processes.put(pid, proc);
            writeProcessTrack(timestampNs, proc, ProcessDescriptor.newBuilder().setPid(pid));
        }
        return proc;
    }

    /** The process's track, or the track it had if it ended (late events of another source). */
    PerfettoSink.ProcessTrack processOrEnded(int pid, long timestampNs) throws IOException {
        PerfettoSink.ProcessTrack ended = endedProcesses.get(pid);
        return ended != null ? ended : process(pid, timestampNs);
    }

    private void writeProcessTrack(long timestampNs, PerfettoSink.ProcessTrack proc, ProcessDescriptor.Builder pd)
            throws IOException {
        out.write(TracePacket.newBuilder()
                .setTimestamp(timestampNs)
                .setTrustedPacketSequenceId(PerfettoSink.GLOBAL_SEQUENCE_ID)
                .setTrackDescriptor(
                        TrackDescriptor.newBuilder().setUuid(proc.uuid()).setProcess(pd))
                .build());
    }

    /** The thread's track, made (with its descriptor) when new. */
    ThreadTrack thread(int pid, int tid, long timestampNs) throws IOException {
        ThreadTrack t = threads.get(pid, tid); // events come in runs of one thread: cached
        return t != null ? t : newThread(pid, tid, null, timestampNs);
    }

    private ThreadTrack newThread(int pid, int tid, String name, long timestampNs) throws IOException {
        PerfettoSink.ProcessTrack proc = process(pid, timestampNs);
        ThreadTrack t = openSequence(pid, timestampNs);
        threads.put(pid, tid, t);
        ThreadDescriptor.Builder td = ThreadDescriptor.newBuilder().setPid(pid).setTid(tid);
        if (name != null) {
            td.setThreadName(name);
        }
        describe(t, proc, TrackDescriptor.newBuilder().setThread(td));
        return t;
    }

    /**
     * A track of its own for a thread's sampled stacks ("Thread N (S) tid" under the process, as
     * upstream names them), so sampled frames never interleave with the thread's regions.
     */
    ThreadTrack sampled(int pid, int tid, long timestampNs) throws IOException {
        return sampledTrack(sampledThreads, pid, tid, "", timestampNs);
    }

    /** The track of a thread's overflow samples, "Thread N Overflow (S) tid" as upstream names it. */
    ThreadTrack overflowSampled(int pid, int tid, long timestampNs) throws IOException {
        return sampledTrack(overflowThreads, pid, tid, " Overflow", timestampNs);
    }

    /** The thread's track in {@code tracks}, "Thread N{@code kind} (S) tid", made when new. */
    private ThreadTrack sampledTrack(ThreadTable<ThreadTrack> tracks, int pid, int tid, String kind, long timestampNs)
            throws IOException {
        ThreadTrack t = tracks.get(pid, tid);
        if (t != null) {
            return t;
        }
        int seq = threadNumber(pid, tid, tracks.size());
        t = named(pid, "Thread " + seq + kind + " (S) " + tid, timestampNs);
        tracks.put(pid, tid, t);
        return t;
    }

    /**
     * A named track with a sequence of its own under the process (or the track it had if it
     * ended: late events of another source), described now: sampled stacks, device work.
     */
    ThreadTrack named(int pid, String name, long timestampNs) throws IOException {
        PerfettoSink.ProcessTrack proc = processOrEnded(pid, timestampNs);
        ThreadTrack t = openSequence(pid, timestampNs);
        describe(t, proc, TrackDescriptor.newBuilder().setName(name));
        return t;
    }

    /**
     * The thread's number from its ThreadStarted; 0 for a main thread not seen starting, else
     * {@code otherwise}.
     */
    int threadNumber(int pid, int tid, int otherwise) {
        return threadSequences.getOrDefault(key(pid, tid), tid == pid ? 0 : otherwise);
    }

    /** The descriptor of a track with a sequence of its own, under its process, first on that sequence. */
    private void describe(ThreadTrack t, PerfettoSink.ProcessTrack proc, TrackDescriptor.Builder td)
            throws IOException {
        out.write(TracePacket.newBuilder()
                .setTimestamp(0)
                .setTrustedPacketSequenceId(t.sequenceId)
                .setTrackDescriptor(td.setUuid(t.uuid).setParentUuid(proc.uuid()))
                .build());
    }

    /**
     * The uuid of a counter track, described the first time (under its process when the series
     * is a process's, else global).
     */
    long counter(CounterTrack track, long timestampNs) throws IOException {
        Long uuid = counters.get(track.name());
        if (uuid != null) {
            return uuid;
        }
        long u = nextUuid++;
        counters.put(track.name(), u);
        TrackDescriptor.Builder td = TrackDescriptor.newBuilder()
                .setUuid(u)
                .setName(track.name())
                .setCounter(CounterDescriptor.newBuilder().setUnitName(track.unit()));
        if (track.pid() != 0) {
            td.setParentUuid(process(track.pid(), timestampNs).uuid());
        }
        out.write(TracePacket.newBuilder()
                .setTimestamp(timestampNs)
                .setTrustedPacketSequenceId(PerfettoSink.GLOBAL_SEQUENCE_ID)
                .setTrackDescriptor(td)
                .build());
        return u;
    }

    /** Starts a packet sequence: clears its state, sets its defaults and defines its clock. */
    ThreadTrack openSequence(int pid, long timestampNs) throws IOException {
        long unit = options.timestampUnitNs();
        ThreadTrack t = new ThreadTrack(pid, nextSequenceId++, nextUuid++, unit, Math.floorDiv(timestampNs, unit));
        out.write(t.startPacket());
        return t;
    }

    private static String basename(String path) {
        if (path == null) {
            return "";
        }
        String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        return trimmed.substring(trimmed.lastIndexOf('/') + 1);
    }
}
