package org.rocprofsys.core.wire;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rocprofsys.core.spi.WireException;

/**
 * The names of a process image's instrumented functions: global function id to name, filled by
 * FUNC_DEF records and shared by the {@link RingDrain}s of the image's rings. A FUNC_DEF may sit
 * on another ring than the FUNC_ENTERs that name it (the thread that registered the area), but the
 * agent publishes it before it installs the hook, so a FUNC_ENTER whose id is unknown here has its
 * FUNC_DEF somewhere in the file's unconsumed records: {@link #name} then looks through them
 * (without consuming anything).
 */
public final class FunctionNames {
    private final RingFile file;
    private final Map<Integer, String> names = new HashMap<>();
    private static final int DENSE_LIMIT = 1 << 20;
    private String[] dense = new String[64];
    private final List<RingSpool> spools = new ArrayList<>();

    /** @param file the image's file, looked through for FUNC_DEFs not yet drained; null: none */
    public FunctionNames(RingFile file) {
        this.file = file;
    }

    public void define(int id, String name) {
        names.put(id, name);
        remember(id, name);
    }

    /**
     * Every FUNC_ENTER asks for its name, and ids are the instrumenter's dense indices: an array
     * answers them without boxing the id into a map lookup.
     */
    private void remember(int id, String name) {
        if (id >= 0 && id < DENSE_LIMIT) {
            if (id >= dense.length) {
                dense = Arrays.copyOf(dense, Math.min(DENSE_LIMIT, Math.max(id + 1, dense.length * 2)));
            }
            dense[id] = name;
        }
    }

    /** The function's name; for an id no FUNC_DEF names, {@code "function#<id>"}. */
    public String name(int id) {
        if (id >= 0 && id < dense.length && dense[id] != null) {
            return dense[id];
        }
        String n = names.get(id);
        if (n == null) {
            scan();
            n = names.get(id);
            if (n == null) {
                n = "function#" + Integer.toUnsignedString(id);
                names.put(id, n);
            }
        }
        remember(id, n);
        return n;
    }

    public int size() {
        return names.size();
    }

    /**
     * Adds a drain's spool to what {@link #name} looks through: records held there are consumed
     * from their ring but not yet decoded.
     */
    void watch(RingSpool spool) {
        spools.add(spool);
    }

    private void scan() {
        for (RingSpool spool : spools) {
            try {
                spool.forEachPiece((data, from, to) -> scan(data, from, to));
            } catch (WireException e) {
                throw new IllegalStateException(e); // scan(...) throws none
            }
        }
        if (file == null) {
            return;
        }
        for (RingFile.Ring ring : file.rings()) {
            long head = ring.head();
            long tail = ring.tail();
            MemorySegment data = ring.data();
            long mask = ring.mask();
            while (tail < head) {
                long pos = tail & mask;
                long end = Math.min(data.byteSize(), pos + (head - tail));
                tail += scan(data, pos, end) - pos;
            }
        }
    }

    /**
     * Takes the FUNC_DEFs among the records from {@code from} to {@code end} of {@code data}, a
     * stretch that does not wrap (a PAD skips to its end); returns where it stopped.
     */
    private long scan(MemorySegment data, long from, long end) {
        long pos = from;
        while (pos < end) {
            int type = Short.toUnsignedInt(data.get(JAVA_SHORT, pos));
            int size = Short.toUnsignedInt(data.get(JAVA_SHORT, pos + 2));
            if (type == WireFormat.REC_PAD) {
                return end;
            }
            if (size < 8 || (size & 7) != 0 || pos + size > end) {
                return end; // the ring's own drain reports it
            }
            if (type == WireFormat.REC_FUNC_DEF) {
                names.putIfAbsent(data.get(JAVA_INT, pos + 4), RingDrain.string(data.asSlice(pos, size), 8));
            }
            pos += size;
        }
        return pos;
    }
}
