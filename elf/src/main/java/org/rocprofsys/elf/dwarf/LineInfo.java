package org.rocprofsys.elf.dwarf;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rocprofsys.elf.Demangler;
import org.rocprofsys.ffm.LibC;

/**
 * The project's one DWARF line reader: file and line of a link-time address from the DWARF of one
 * ELF file, with the chain of inlined frames, through libdw (FFM):
 * {@code dwarf_begin} on the file, {@code dwarf_addrdie} for the compile unit,
 * {@code dwarf_getsrc_die} + {@code dwarf_lineno}/{@code dwarf_linesrc} for the line, and
 * {@code dwarf_getscopes} for the chain of inlined frames. A file without DWARF yields no
 * {@code LineInfo} ({@link #open} is empty). Holds the fd and the Dwarf handle until {@link #close}.
 * Calls are serialized (one Dwarf handle is not thread-safe); results are cached per address.
 */
public final class LineInfo implements AutoCloseable {
    /**
     * A source position; {@code function} is the (demangled) function it belongs to, null where
     * unknown; {@code file} is the path libdw joins from the line program's directory and file
     * entries.
     */
    public record Location(String function, String file, int line) {
        /**
         * The file's name without its directories: the name the line program's file entry holds
         * (GCC and Clang put the directory part in the directory table), which instrumentation
         * labels show.
         */
        public String fileName() {
            if (file == null) {
                return null;
            }
            int slash = file.lastIndexOf('/');
            return slash < 0 ? file : file.substring(slash + 1);
        }
    }

    private static final int CACHE_LIMIT = 1 << 15;

    private final String path;
    private final Map<Long, List<Location>> cache = new HashMap<>();
    private int fd;
    private MemorySegment dwarf;

    private LineInfo(String path, int fd, MemorySegment dwarf) {
        this.path = path;
        this.fd = fd;
        this.dwarf = dwarf;
    }

    /** True when libdw.so.1 can be loaded. */
    public static boolean available() {
        return Libdw.available();
    }

    /** The DWARF of {@code file}; empty when the file has none, cannot be read, or libdw is missing. */
    public static Optional<LineInfo> open(Path file) {
        if (!available()) {
            return Optional.empty();
        }
        int fd = LibC.openRead(file.toString());
        if (fd < 0) {
            return Optional.empty();
        }
        MemorySegment dbg;
        try {
            dbg = (MemorySegment) Libdw.DWARF_BEGIN.invokeExact(fd, Libdw.DWARF_C_READ);
        } catch (Throwable t) {
            LibC.close(fd);
            throw LibC.rethrow(t);
        }
        if (dbg.equals(MemorySegment.NULL)) {
            LibC.close(fd);
            return Optional.empty();
        }
        return Optional.of(new LineInfo(file.toString(), fd, dbg));
    }

    public String path() {
        return path;
    }

    /** File and line of {@code vaddr} from the line table (the innermost, inlined, position). */
    public Optional<Location> lookup(long vaddr) {
        List<Location> chain = frames(vaddr);
        return chain.isEmpty() ? Optional.empty() : Optional.of(chain.getFirst());
    }

    /**
     * The frames at {@code vaddr}, innermost first: for each inlined function its name and the
     * position inside it (the line-table position for the first, the call site of the inner one
     * for the others), ending with the enclosing out-of-line function. One element (function
     * possibly null) when there is no inlining or no scope information; empty without line info.
     */
    public synchronized List<Location> frames(long vaddr) {
        if (dwarf == null) {
            return List.of();
        }
        List<Location> hit = cache.get(vaddr);
        if (hit != null) {
            return hit;
        }
        List<Location> out;
        try {
            out = compute(vaddr);
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
        if (cache.size() >= CACHE_LIMIT) {
            cache.clear();
        }
        cache.put(vaddr, out);
        return out;
    }

    private List<Location> compute(long vaddr) throws Throwable {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cu = a.allocate(Libdw.DIE_SIZE, 8);
            if (((MemorySegment) Libdw.DWARF_ADDRDIE.invokeExact(dwarf, vaddr, cu)).equals(MemorySegment.NULL)) {
                return List.of();
            }
            MemorySegment line = (MemorySegment) Libdw.DWARF_GETSRC_DIE.invokeExact(cu, vaddr);
            if (line.equals(MemorySegment.NULL)) {
                return List.of();
            }
            MemorySegment lineno = a.allocate(JAVA_INT);
            int rc = (int) Libdw.DWARF_LINENO.invokeExact(line, lineno);
            String file = LibC.string(
                    (MemorySegment) Libdw.DWARF_LINESRC.invokeExact(line, MemorySegment.NULL, MemorySegment.NULL));
            int curLine = rc == 0 ? lineno.get(JAVA_INT, 0) : 0;
            String curFile = file;

            List<Location> out = new ArrayList<>();
            // dwarf_getscopes lists the scopes at pc (for an inlined function, continuing with its
            // abstract origin's); the physical chain of callers comes from dwarf_getscopes_die on
            // the innermost function instance, as eu-addr2line does
            MemorySegment scopesP = a.allocate(ADDRESS);
            int n = (int) Libdw.DWARF_GETSCOPES.invokeExact(cu, vaddr, scopesP);
            if (n > 0) {
                MemorySegment scopes = scopesP.get(ADDRESS, 0).reinterpret(n * Libdw.DIE_SIZE);
                MemorySegment inner = null;
                try {
                    for (int i = 0; i < n && inner == null; i++) {
                        MemorySegment die = scopes.asSlice(i * Libdw.DIE_SIZE, Libdw.DIE_SIZE);
                        int tag = (int) Libdw.DWARF_TAG.invokeExact(die);
                        if (tag == Libdw.DW_TAG_inlined_subroutine || tag == Libdw.DW_TAG_subprogram) {
                            inner = a.allocate(Libdw.DIE_SIZE, 8).copyFrom(die);
                        }
                    }
                } finally {
                    LibC.free(scopes);
                }
                if (inner != null) {
                    int m = (int) Libdw.DWARF_GETSCOPES_DIE.invokeExact(inner, scopesP);
                    if (m > 0) {
                        MemorySegment chain = scopesP.get(ADDRESS, 0).reinterpret(m * Libdw.DIE_SIZE);
                        try {
                            walk(a, cu, chain, m, curFile, curLine, out);
                        } finally {
                            LibC.free(chain);
                        }
                    }
                }
            }
            if (out.isEmpty()) {
                out.add(new Location(null, file, curLine));
            }
            return List.copyOf(out);
        }
    }

    private static void walk(
            Arena a, MemorySegment cu, MemorySegment chain, int n, String curFile, int curLine, List<Location> out)
            throws Throwable {
        MemorySegment files = null;
        for (int i = 0; i < n; i++) {
            MemorySegment die = chain.asSlice(i * Libdw.DIE_SIZE, Libdw.DIE_SIZE);
            int tag = (int) Libdw.DWARF_TAG.invokeExact(die);
            if (tag != Libdw.DW_TAG_inlined_subroutine && tag != Libdw.DW_TAG_subprogram) {
                continue;
            }
            out.add(new Location(functionName(a, die), curFile, curLine));
            if (tag == Libdw.DW_TAG_subprogram) {
                return;
            }
            long callFile = udata(a, die, Libdw.DW_AT_call_file);
            long callLine = udata(a, die, Libdw.DW_AT_call_line);
            if (files == null) {
                files = srcFiles(a, cu);
            }
            curFile = callFile >= 0 && files != null ? fileName(a, files, callFile) : null;
            curLine = (int) Math.max(callLine, 0);
        }
    }

    private static String functionName(Arena a, MemorySegment die) throws Throwable {
        String linkage = string(a, die, Libdw.DW_AT_linkage_name);
        if (linkage == null) {
            linkage = string(a, die, Libdw.DW_AT_MIPS_linkage_name);
        }
        if (linkage != null) {
            return Demangler.shared().demangle(linkage);
        }
        return string(a, die, Libdw.DW_AT_name);
    }

    private static String string(Arena a, MemorySegment die, int attr) throws Throwable {
        MemorySegment mem = a.allocate(Libdw.ATTR_SIZE, 8);
        MemorySegment at = (MemorySegment) Libdw.DWARF_ATTR_INTEGRATE.invokeExact(die, attr, mem);
        if (at.equals(MemorySegment.NULL)) {
            return null;
        }
        return LibC.string((MemorySegment) Libdw.DWARF_FORMSTRING.invokeExact(at));
    }

    private static long udata(Arena a, MemorySegment die, int attr) throws Throwable {
        MemorySegment mem = a.allocate(Libdw.ATTR_SIZE, 8);
        MemorySegment at = (MemorySegment) Libdw.DWARF_ATTR_INTEGRATE.invokeExact(die, attr, mem);
        if (at.equals(MemorySegment.NULL)) {
            return -1;
        }
        MemorySegment v = a.allocate(JAVA_LONG);
        return (int) Libdw.DWARF_FORMUDATA.invokeExact(at, v) == 0 ? v.get(JAVA_LONG, 0) : -1;
    }

    private static MemorySegment srcFiles(Arena a, MemorySegment cu) throws Throwable {
        MemorySegment filesP = a.allocate(ADDRESS);
        MemorySegment nfiles = a.allocate(JAVA_LONG);
        return (int) Libdw.DWARF_GETSRCFILES.invokeExact(cu, filesP, nfiles) == 0 ? filesP.get(ADDRESS, 0) : null;
    }

    private static String fileName(Arena a, MemorySegment files, long idx) throws Throwable {
        return LibC.string(
                (MemorySegment) Libdw.DWARF_FILESRC.invokeExact(files, idx, MemorySegment.NULL, MemorySegment.NULL));
    }

    @Override
    public synchronized void close() {
        if (dwarf != null) {
            try {
                int rc = (int) Libdw.DWARF_END.invokeExact(dwarf);
            } catch (Throwable t) {
                throw LibC.rethrow(t);
            } finally {
                dwarf = null;
                LibC.close(fd);
                fd = -1;
            }
        }
    }
}
