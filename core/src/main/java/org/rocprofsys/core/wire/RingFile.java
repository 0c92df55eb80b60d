package org.rocprofsys.core.wire;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.rocprofsys.core.spi.WireException;

/**
 * One agent ring file, mapped shared. Reads the header and hands out the rings; the producer side
 * is the agent. Heads are read with acquire and tails written with release, pairing with the
 * agent's release store of head and acquire load of tail. {@link #clock()} converts the file's
 * record times to CLOCK_MONOTONIC ns. Used by one thread at a time.
 */
public final class RingFile implements AutoCloseable {
    private static final VarHandle LONG = JAVA_LONG.varHandle();
    private static final VarHandle INT = JAVA_INT.varHandle();
    /** A TSC file's conversion is re-derived at most this often until the process has exited. */
    private static final long CLOCK_REFRESH_NS = 1_000_000L;
    /** Seqlock reads of the latest pair before giving up (a writer killed mid-update leaves it odd). */
    private static final int PAIR_READ_TRIES = 10_000;

    private final Path path;
    private final Arena arena;
    private final MemorySegment segment;
    private final long ringDataSize;
    private final int maxRings;
    private final List<Ring> rings = new ArrayList<>();
    private final int clockKind;
    private ClockConversion clock;
    private long clockDerivedAt;
    private boolean clockFinal;

    private RingFile(Path path, Arena arena, MemorySegment segment) {
        this.path = path;
        this.arena = arena;
        this.segment = segment;
        this.ringDataSize = segment.get(JAVA_LONG, WireFormat.H_RING_DATA_SIZE);
        this.maxRings = segment.get(JAVA_INT, WireFormat.H_MAX_RINGS);
        this.clockKind = segment.get(JAVA_INT, WireFormat.H_CLOCK_KIND);
    }

    /**
     * Maps a ring file once its agent has published the header (state RUNNING or later).
     *
     * @return null while the header is not yet published
     * @throws WireException when the file is not a ring file of this protocol version
     */
    public static RingFile open(Path path) throws IOException, WireException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = ch.size();
            if (size < WireFormat.FILE_HEADER_SIZE) {
                return null;
            }
            Arena arena = Arena.ofShared();
            MemorySegment seg = ch.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            if ((int) INT.getAcquire(seg, WireFormat.H_STATE) == WireFormat.STATE_INITIALISING) {
                arena.close();
                return null;
            }
            try {
                validate(path, seg, size);
            } catch (WireException e) {
                arena.close();
                throw e;
            }
            return new RingFile(path, arena, seg);
        }
    }

    private static void validate(Path path, MemorySegment seg, long size) throws WireException {
        long magic = seg.get(JAVA_LONG, WireFormat.H_MAGIC);
        if (magic != WireFormat.MAGIC) {
            throw new WireException(path + ": not a rocprof-sys ring file (magic " + Long.toHexString(magic) + ")");
        }
        int version = seg.get(JAVA_INT, WireFormat.H_VERSION);
        if (version < WireFormat.OLDEST_READABLE_VERSION || version > WireFormat.VERSION) {
            throw new WireException(path + ": wire protocol version " + version + ", this collector reads "
                    + WireFormat.OLDEST_READABLE_VERSION + " to " + WireFormat.VERSION
                    + " (agent and collector from different builds?)");
        }
        if (seg.get(JAVA_INT, WireFormat.H_HEADER_SIZE) != WireFormat.FILE_HEADER_SIZE
                || seg.get(JAVA_INT, WireFormat.H_RING_HEADER_SIZE) != WireFormat.RING_HEADER_SIZE) {
            throw new WireException(path + ": unexpected header sizes");
        }
        long data = seg.get(JAVA_LONG, WireFormat.H_RING_DATA_SIZE);
        long rings = Integer.toUnsignedLong(seg.get(JAVA_INT, WireFormat.H_MAX_RINGS));
        if (Long.bitCount(data) != 1
                || WireFormat.FILE_HEADER_SIZE + rings * (WireFormat.RING_HEADER_SIZE + data) > size) {
            throw new WireException(path + ": ring geometry does not fit the file");
        }
        int clockKind = seg.get(JAVA_INT, WireFormat.H_CLOCK_KIND);
        if (clockKind != WireFormat.CLOCK_MONOTONIC_NS && clockKind != WireFormat.CLOCK_TSC) {
            throw new WireException(path + ": unknown clock kind " + seg.get(JAVA_INT, WireFormat.H_CLOCK_KIND));
        }
    }

    public Path path() {
        return path;
    }

    public long magic() {
        return segment.get(JAVA_LONG, WireFormat.H_MAGIC);
    }

    public int version() {
        return segment.get(JAVA_INT, WireFormat.H_VERSION);
    }

    public int headerSize() {
        return segment.get(JAVA_INT, WireFormat.H_HEADER_SIZE);
    }

    public int ringHeaderSize() {
        return segment.get(JAVA_INT, WireFormat.H_RING_HEADER_SIZE);
    }

    public int maxRings() {
        return maxRings;
    }

    public long ringDataSize() {
        return ringDataSize;
    }

    public int flags() {
        return segment.get(JAVA_INT, WireFormat.H_FLAGS);
    }

    public int clockKind() {
        return clockKind;
    }

    /** Ring slots taken so far; may exceed {@link #maxRings()} (those threads recorded nothing). */
    public int ringsClaimed() {
        return (int) INT.getAcquire(segment, WireFormat.H_RINGS_CLAIMED);
    }

    public int commandLineSize() {
        return segment.get(JAVA_INT, WireFormat.H_CMDLINE_SIZE);
    }

    public int pid() {
        return segment.get(JAVA_INT, WireFormat.H_PID);
    }

    public int ppid() {
        return segment.get(JAVA_INT, WireFormat.H_PPID);
    }

    public int forkedFrom() {
        return segment.get(JAVA_INT, WireFormat.H_FORKED_FROM);
    }

    public int execGeneration() {
        return segment.get(JAVA_INT, WireFormat.H_EXEC_GENERATION);
    }

    /** Record clock when the agent initialised (clock kind TSC: ticks; see {@link #initTimeNs()}). */
    public long initTime() {
        return segment.get(JAVA_LONG, WireFormat.H_INIT_TIME);
    }

    /** CLOCK_MONOTONIC read with {@link #initTime()} (for clock kind 0 the same value). */
    public long initMonotonicNs() {
        return segment.get(JAVA_LONG, WireFormat.H_INIT_MONOTONIC);
    }

    /** {@link #initTime()} as CLOCK_MONOTONIC ns. */
    public long initTimeNs() {
        return clock().toMonotonicNs(initTime());
    }

    public long initRealtimeNs() {
        return segment.get(JAVA_LONG, WireFormat.H_INIT_REALTIME);
    }

    public int metrics() {
        return segment.get(JAVA_INT, WireFormat.H_METRICS);
    }

    public int state() {
        return (int) INT.getAcquire(segment, WireFormat.H_STATE);
    }

    public int exitCode() {
        return segment.get(JAVA_INT, WireFormat.H_EXIT_CODE);
    }

    /** Record clock at exit, once exited (clock kind TSC: ticks; see {@link #exitTimeNs()}). */
    public long exitTime() {
        return segment.get(JAVA_LONG, WireFormat.H_EXIT_TIME);
    }

    /** CLOCK_MONOTONIC read with {@link #exitTime()}, once exited. */
    public long exitMonotonicNs() {
        return segment.get(JAVA_LONG, WireFormat.H_EXIT_MONOTONIC);
    }

    /** {@link #exitTime()} as CLOCK_MONOTONIC ns (meaningful once exited). */
    public long exitTimeNs() {
        return clock().toMonotonicNs(exitTime());
    }

    /** The seqlock counter of the latest calibration pair: 0 none yet, odd while the agent writes one. */
    public int clockPairSequence() {
        return (int) INT.getAcquire(segment, WireFormat.H_CLOCK_PAIR_SEQ);
    }

    /**
     * The latest calibration pair the agent stored (TSC files), read consistently with the agent's
     * seqlock; null when there is none, or when a writer died while storing one.
     */
    public ClockConversion.Pair latestClockPair() {
        for (int i = 0; i < PAIR_READ_TRIES; i++) {
            int seq = (int) INT.getAcquire(segment, WireFormat.H_CLOCK_PAIR_SEQ);
            if ((seq & 1) != 0) {
                Thread.onSpinWait();
                continue;
            }
            long ticks = (long) LONG.getOpaque(segment, WireFormat.H_LATEST_TIME);
            long ns = (long) LONG.getOpaque(segment, WireFormat.H_LATEST_MONOTONIC);
            VarHandle.acquireFence();
            if ((int) INT.getOpaque(segment, WireFormat.H_CLOCK_PAIR_SEQ) == seq) {
                return seq == 0 ? null : new ClockConversion.Pair(ticks, ns);
            }
        }
        return null;
    }

    /** Path of the agent library that wrote this file; empty when it did not say. */
    public String agentPath() {
        return cString(WireFormat.H_AGENT_PATH, WireFormat.AGENT_PATH_CAPACITY);
    }

    /**
     * How this file's record times become CLOCK_MONOTONIC ns ({@link ClockConversion#choose} for TSC
     * files). Until the process has exited the conversion is re-derived from the newest pairs (at most
     * every millisecond), so callers take it afresh for each batch of records; once exited it is fixed.
     */
    public ClockConversion clock() {
        if (clockKind != WireFormat.CLOCK_TSC) {
            return ClockConversion.IDENTITY;
        }
        if (clockFinal) {
            return clock;
        }
        long now = System.nanoTime(); // CLOCK_MONOTONIC
        if (clock != null && now - clockDerivedAt < CLOCK_REFRESH_NS) {
            return clock;
        }
        boolean exited = state() == WireFormat.STATE_EXITED;
        ClockConversion.Pair init = new ClockConversion.Pair(initTime(), initMonotonicNs());
        ClockConversion.Pair exit = exited ? new ClockConversion.Pair(exitTime(), exitMonotonicNs()) : null;
        Supplier<ClockConversion.Pair> own = AgentClock.of(agentPath())
                .<Supplier<ClockConversion.Pair>>map(c -> c::read)
                .orElse(null);
        clock = ClockConversion.choose(init, exit, latestClockPair(), now, own);
        clockDerivedAt = now;
        clockFinal = exited;
        return clock;
    }

    /** Threads that found no ring slot: more were alive at once than the file has slots. */
    public int unringedThreads() {
        return (int) INT.getAcquire(segment, WireFormat.H_UNRINGED_THREADS);
    }

    public long unringedDrops() {
        return (long) LONG.getAcquire(segment, WireFormat.H_UNRINGED_DROPS);
    }

    public String executable() {
        return cString(WireFormat.H_EXE, WireFormat.EXE_CAPACITY);
    }

    public List<String> commandLine() {
        int size = Math.min(segment.get(JAVA_INT, WireFormat.H_CMDLINE_SIZE), WireFormat.CMDLINE_CAPACITY);
        byte[] bytes = segment.asSlice(WireFormat.H_CMDLINE, size).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        List<String> args = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                args.add(new String(bytes, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        if (start < bytes.length) {
            args.add(new String(bytes, start, bytes.length - start, StandardCharsets.UTF_8));
        }
        return args;
    }

    private String cString(long offset, int capacity) {
        MemorySegment s = segment.asSlice(offset, capacity);
        int len = 0;
        while (len < capacity && s.get(java.lang.foreign.ValueLayout.JAVA_BYTE, len) != 0) {
            len++;
        }
        return new String(s.asSlice(0, len).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
    }

    /** The rings claimed so far, in slot order; new ones are added as threads appear. */
    public List<Ring> rings() {
        int claimed = Math.min((int) INT.getAcquire(segment, WireFormat.H_RINGS_CLAIMED), maxRings);
        for (int i = rings.size(); i < claimed; i++) {
            long base = WireFormat.FILE_HEADER_SIZE + i * (WireFormat.RING_HEADER_SIZE + ringDataSize);
            MemorySegment header = segment.asSlice(base, WireFormat.RING_HEADER_SIZE);
            if ((int) INT.getAcquire(header, WireFormat.R_STATE) == WireFormat.RING_FREE) {
                break; // claimed but tid/seq not yet published; pick it up on the next pass
            }
            rings.add(new Ring(this, header, segment.asSlice(base + WireFormat.RING_HEADER_SIZE, ringDataSize)));
        }
        return rings;
    }

    @Override
    public void close() {
        arena.close();
    }

    /** One thread's ring. */
    public static final class Ring {
        private final RingFile file;
        private final MemorySegment header;
        private final MemorySegment data;
        private final long mask;

        Ring(RingFile file, MemorySegment header, MemorySegment data) {
            this.file = file;
            this.header = header;
            this.data = data;
            this.mask = data.byteSize() - 1;
        }

        /** The kernel thread id of the slot's thread now (a slot serves one thread after another). */
        public int tid() {
            return header.get(JAVA_INT, WireFormat.R_TID);
        }

        /** The metric flags of the file ({@link RingFile#metrics()}), which FUNC_ENTER/EXIT carry when set. */
        public int metrics() {
            return file.metrics();
        }

        /** The conversion of this ring's record times ({@link RingFile#clock()}). */
        public ClockConversion clock() {
            return file.clock();
        }

        public int threadSequence() {
            return header.get(JAVA_INT, WireFormat.R_THREAD_SEQ);
        }

        public int state() {
            return (int) INT.getAcquire(header, WireFormat.R_STATE);
        }

        public long dropped() {
            return (long) LONG.getAcquire(header, WireFormat.R_DROPPED);
        }

        public long head() {
            return (long) LONG.getAcquire(header, WireFormat.R_HEAD);
        }

        /**
         * Where head would be with the FUNC_ENTER the producer last left unpublished; meaningful
         * only once the process is gone, and only when it is {@code head() + 16}.
         */
        public long unpublishedHead() {
            return (long) LONG.getAcquire(header, WireFormat.R_UNPUBLISHED_HEAD);
        }

        public long tail() {
            return header.get(JAVA_LONG, WireFormat.R_TAIL);
        }

        /** Publishes consumption so the producer may reuse the space. */
        public void release(long tail) {
            LONG.setRelease(header, WireFormat.R_TAIL, tail);
        }

        public MemorySegment data() {
            return data;
        }

        public long mask() {
            return mask;
        }
    }
}
