package org.rocprofsys.core.wire;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

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
            if (file != null) {
                scan();
            }
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

    private void scan() {
        for (RingFile.Ring ring : file.rings()) {
            long head = ring.head();
            long tail = ring.tail();
            MemorySegment data = ring.data();
            long mask = ring.mask();
            while (tail < head) {
                long pos = tail & mask;
                int type = Short.toUnsignedInt(data.get(JAVA_SHORT, pos));
                int size = Short.toUnsignedInt(data.get(JAVA_SHORT, pos + 2));
                if (type == WireFormat.REC_PAD) {
                    tail += data.byteSize() - pos;
                    continue;
                }
                if (size < 8 || (size & 7) != 0 || pos + size > data.byteSize()) {
                    break; // the ring's own drain reports it
                }
                if (type == WireFormat.REC_FUNC_DEF) {
                    names.putIfAbsent(data.get(JAVA_INT, pos + 4), RingDrain.string(data.asSlice(pos, size), 8));
                }
                tail += size;
            }
        }
    }
}
