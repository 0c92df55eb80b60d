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

/**
 * One agent ring file, mapped shared. Reads the header and hands out the rings; the producer side
 * is the agent. Heads are read with acquire and tails written with release, pairing with the
 * agent's release store of head and acquire load of tail.
 */
public final class RingFile implements AutoCloseable {
    private static final VarHandle LONG = JAVA_LONG.varHandle();
    private static final VarHandle INT = JAVA_INT.varHandle();

    private final Path path;
    private final Arena arena;
    private final MemorySegment segment;
    private final long ringDataSize;
    private final int maxRings;
    private final List<Ring> rings = new ArrayList<>();

    private RingFile(Path path, Arena arena, MemorySegment segment) {
        this.path = path;
        this.arena = arena;
        this.segment = segment;
        this.ringDataSize = segment.get(JAVA_LONG, WireFormat.H_RING_DATA_SIZE);
        this.maxRings = segment.get(JAVA_INT, WireFormat.H_MAX_RINGS);
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
        if (version != WireFormat.VERSION) {
            throw new WireException(path + ": wire protocol version " + version + ", this collector reads "
                    + WireFormat.VERSION + " (agent and collector from different builds?)");
        }
        if (seg.get(JAVA_INT, WireFormat.H_HEADER_SIZE) != WireFormat.FILE_HEADER_SIZE
                || seg.get(JAVA_INT, WireFormat.H_RING_HEADER_SIZE) != WireFormat.RING_HEADER_SIZE) {
            throw new WireException(path + ": unexpected header sizes");
        }
        long data = seg.get(JAVA_LONG, WireFormat.H_RING_DATA_SIZE);
        long rings = Integer.toUnsignedLong(seg.get(JAVA_INT, WireFormat.H_MAX_RINGS));
        if (Long.bitCount(data) != 1 || WireFormat.FILE_HEADER_SIZE + rings * (WireFormat.RING_HEADER_SIZE + data) > size) {
            throw new WireException(path + ": ring geometry does not fit the file");
        }
        if (seg.get(JAVA_INT, WireFormat.H_CLOCK_KIND) != WireFormat.CLOCK_MONOTONIC_NS) {
            throw new WireException(path + ": unknown clock kind " + seg.get(JAVA_INT, WireFormat.H_CLOCK_KIND));
        }
    }

    public Path path() {
        return path;
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

    public long initTime() {
        return segment.get(JAVA_LONG, WireFormat.H_INIT_TIME);
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

    public long exitTime() {
        return segment.get(JAVA_LONG, WireFormat.H_EXIT_TIME);
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
            rings.add(new Ring(header, segment.asSlice(base + WireFormat.RING_HEADER_SIZE, ringDataSize)));
        }
        return rings;
    }

    @Override
    public void close() {
        arena.close();
    }

    /** One thread's ring. */
    public static final class Ring {
        private final MemorySegment header;
        private final MemorySegment data;
        private final long mask;

        Ring(MemorySegment header, MemorySegment data) {
            this.header = header;
            this.data = data;
            this.mask = data.byteSize() - 1;
        }

        public int tid() {
            return header.get(JAVA_INT, WireFormat.R_TID);
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
