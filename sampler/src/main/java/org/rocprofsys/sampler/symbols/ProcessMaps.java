package org.rocprofsys.sampler.symbols;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.rocprofsys.sampler.perf.PerfRecord;

/**
 * The memory mappings of each process, built from PERF_RECORD_MMAP/MMAP2 records (no /proc
 * reads): a new mapping replaces the overlapped parts of older ones (as mmap does), a fork copies
 * the parent's mappings, an exec (COMM with the exec flag, which the kernel sends before the new
 * image's mmaps) clears them. Thread-safe.
 */
public final class ProcessMaps {
    /**
     * One mapping. {@code path} as the kernel names it ({@code //anon}, {@code [vdso]},
     * {@code [heap]}, or a file); {@code buildId} empty unless the kernel sent one.
     */
    public record Mapping(
            long start,
            long end,
            long pgoff,
            String path,
            byte[] buildId,
            int major,
            int minor,
            long inode,
            int prot,
            boolean executable) {
        public boolean contains(long pc) {
            return Long.compareUnsigned(pc, start) >= 0 && Long.compareUnsigned(pc, end) < 0;
        }

        /** A file-backed mapping ({@code /...}, not {@code //anon}, {@code /memfd:}, {@code /dev/zero}...). */
        public boolean isFile() {
            return path.startsWith("/")
                    && !path.startsWith("//anon")
                    && !path.startsWith("/memfd:")
                    && !path.startsWith("/dev/zero")
                    && !path.startsWith("/SYSV")
                    && !path.endsWith(" (deleted)");
        }

        /** Anonymous memory (where JIT code lives): {@code //anon}, {@code [anon:...]}, {@code /memfd:}, or no name. */
        public boolean isAnonymous() {
            return path.isEmpty()
                    || path.startsWith("//anon")
                    || path.startsWith("[anon")
                    || path.startsWith("/memfd:")
                    || path.startsWith("[heap]")
                    || path.startsWith("[stack");
        }

        public boolean isVdso() {
            return path.equals("[vdso]");
        }

        Mapping slice(long s, long e) {
            return new Mapping(s, e, pgoff + (s - start), path, buildId, major, minor, inode, prot, executable);
        }
    }

    private final Map<Integer, TreeMap<Long, Mapping>> byPid = new HashMap<>();

    /** Applies the records that change mappings: MMAP, FORK (of a process), COMM with exec. */
    public void accept(PerfRecord r) {
        switch (r) {
            case PerfRecord.Mmap m -> add(m);
            case PerfRecord.Fork f -> {
                if (f.pid() != f.ppid()) {
                    fork(f.ppid(), f.pid());
                }
            }
            case PerfRecord.Comm c -> {
                if (c.exec()) {
                    exec(c.pid());
                }
            }
            default -> {}
        }
    }

    public void add(PerfRecord.Mmap m) {
        add(
                m.pid(),
                new Mapping(
                        m.address(),
                        m.end(),
                        m.pageOffset(),
                        m.filename(),
                        m.buildId(),
                        m.major(),
                        m.minor(),
                        m.inode(),
                        m.prot(),
                        !m.data()));
    }

    public synchronized void add(int pid, Mapping m) {
        if (m.end() == m.start()) {
            return;
        }
        TreeMap<Long, Mapping> maps = byPid.computeIfAbsent(pid, k -> new TreeMap<>(Long::compareUnsigned));
        // trim or split every mapping overlapping [start, end)
        List<Mapping> overlapped = new ArrayList<>();
        Map.Entry<Long, Mapping> before = maps.lowerEntry(m.start());
        if (before != null && Long.compareUnsigned(before.getValue().end(), m.start()) > 0) {
            overlapped.add(before.getValue());
        }
        overlapped.addAll(maps.subMap(m.start(), true, m.end(), false).values());
        for (Mapping o : overlapped) {
            maps.remove(o.start());
            if (Long.compareUnsigned(o.start(), m.start()) < 0) {
                maps.put(o.start(), o.slice(o.start(), m.start()));
            }
            if (Long.compareUnsigned(o.end(), m.end()) > 0) {
                maps.put(m.end(), o.slice(m.end(), o.end()));
            }
        }
        maps.put(m.start(), m);
    }

    /** A new process {@code child} starts with a copy of {@code parent}'s mappings. */
    public synchronized void fork(int parent, int child) {
        TreeMap<Long, Mapping> p = byPid.get(parent);
        TreeMap<Long, Mapping> copy = new TreeMap<>(Long::compareUnsigned);
        if (p != null) {
            copy.putAll(p);
        }
        byPid.put(child, copy);
    }

    /** The process replaced its image: all its mappings are gone. */
    public synchronized void exec(int pid) {
        byPid.remove(pid);
    }

    /** Forgets a process (after its exit, once its samples are symbolized). */
    public synchronized void remove(int pid) {
        byPid.remove(pid);
    }

    /** The mapping of {@code pid} holding {@code pc}, or null. */
    public synchronized Mapping find(int pid, long pc) {
        TreeMap<Long, Mapping> maps = byPid.get(pid);
        if (maps == null) {
            return null;
        }
        Map.Entry<Long, Mapping> e = maps.floorEntry(pc);
        return e != null && e.getValue().contains(pc) ? e.getValue() : null;
    }

    /** A snapshot of the mappings of {@code pid}, by address. */
    public synchronized List<Mapping> mappings(int pid) {
        TreeMap<Long, Mapping> maps = byPid.get(pid);
        return maps == null ? List.of() : List.copyOf(maps.values());
    }
}
