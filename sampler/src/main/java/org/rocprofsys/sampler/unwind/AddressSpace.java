package org.rocprofsys.sampler.unwind;

import java.util.Map;
import java.util.TreeMap;

/**
 * The executable mappings of one process (from /proc/pid/maps, perf's MMAP2 records or the agent's
 * copy): a later mapping replaces the parts of earlier ones it overlaps. Not thread-safe.
 */
public final class AddressSpace {
    /** {@code [start, end)} maps {@code path} from file offset {@code pageOffset}. */
    public record Mapping(long start, long end, long pageOffset, String path) {
        public boolean contains(long pc) {
            return Long.compareUnsigned(pc, start) >= 0 && Long.compareUnsigned(pc, end) < 0;
        }
    }

    private final TreeMap<Long, Mapping> maps = new TreeMap<>(Long::compareUnsigned);

    /** Adds an executable mapping (the caller leaves out data mappings). */
    public void add(Mapping m) {
        // Trim or drop what the new mapping covers.
        Map.Entry<Long, Mapping> e = maps.lowerEntry(m.end());
        while (e != null && Long.compareUnsigned(e.getValue().end(), m.start()) > 0) {
            Mapping old = e.getValue();
            maps.remove(e.getKey());
            if (Long.compareUnsigned(old.start(), m.start()) < 0) {
                maps.put(old.start(), new Mapping(old.start(), m.start(), old.pageOffset(), old.path()));
            }
            if (Long.compareUnsigned(old.end(), m.end()) > 0) {
                maps.put(
                        m.end(),
                        new Mapping(m.end(), old.end(), old.pageOffset() + (m.end() - old.start()), old.path()));
            }
            e = maps.lowerEntry(e.getKey());
        }
        maps.put(m.start(), m);
    }

    /** The mapping holding {@code pc}, or null. */
    public Mapping find(long pc) {
        Map.Entry<Long, Mapping> e = maps.floorEntry(pc);
        return e != null && e.getValue().contains(pc) ? e.getValue() : null;
    }

    public int size() {
        return maps.size();
    }
}
