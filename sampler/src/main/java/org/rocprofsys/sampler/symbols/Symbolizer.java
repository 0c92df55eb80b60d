package org.rocprofsys.sampler.symbols;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.rocprofsys.config.proc.MapsEntry;
import org.rocprofsys.config.proc.ProcFs;
import org.rocprofsys.elf.DebugFiles;
import org.rocprofsys.elf.Demangler;
import org.rocprofsys.elf.dwarf.LineInfo;
import org.rocprofsys.sampler.perf.PerfRecord;

/**
 * Turns (pid, pc) into frames: the pc's mapping from {@link ProcessMaps}, the module's
 * {@link ElfSymbols} (cached per build-id when the kernel sent one, else per path + device +
 * inode), demangling, and optionally DWARF file:line and inlined frames ({@link LineInfo}).
 * {@code [vdso]} pcs resolve against this JVM's own vDSO image (the same kernel's); pcs in
 * anonymous mappings (or in none) are looked up in {@code /tmp/perf-<pid>.map}; a pc of a mapped
 * file that no symbol or FDE covers is {@code file+0xvaddr}; pcs in no mapping or in anonymous
 * memory without a perf map give {@code [unknown]} frames as perf names them.
 */
public final class Symbolizer implements AutoCloseable {
    /**
     * @param lineInfo   resolve file:line (libdw)
     * @param inlines    also expand inlined frames in {@link #symbolizeInlined} (SAMPLING_INCLUDE_INLINES)
     * @param perfMapDir where {@code perf-<pid>.map} files are ({@code /tmp})
     * @param debugFiles where separate debug files are looked for (symbols and line tables)
     * @param kallsyms   the kernel's symbols ({@code /proc/kallsyms})
     */
    public record Options(boolean lineInfo, boolean inlines, Path perfMapDir, DebugFiles debugFiles, Path kallsyms) {
        public Options(boolean lineInfo, boolean inlines, Path perfMapDir) {
            this(lineInfo, inlines, perfMapDir, DebugFiles.system());
        }

        public Options(boolean lineInfo, boolean inlines, Path perfMapDir, DebugFiles debugFiles) {
            this(lineInfo, inlines, perfMapDir, debugFiles, Path.of("/proc/kallsyms"));
        }

        public static Options defaults() {
            return new Options(false, false, Path.of("/tmp"));
        }
    }

    public static final String VDSO = "[vdso]";
    public static final String KERNEL = "[kernel.kallsyms]";
    private static final long PERF_MAP_RESTAT_NS = 1_000_000_000L;

    /** A loaded module: symbols, and line info opened on first need (null = not tried). */
    private static final class Module {
        final ElfSymbols elf;
        final Path path;
        volatile Optional<LineInfo> lines;

        Module(ElfSymbols elf, Path path) {
            this.elf = elf;
            this.path = path;
        }

        Optional<LineInfo> lines() {
            Optional<LineInfo> l = lines;
            if (l == null) {
                synchronized (this) {
                    l = lines;
                    if (l == null) {
                        l = path == null ? Optional.empty() : LineInfo.open(path);
                        if (l.isEmpty() && elf.debugFile() != null) {
                            l = LineInfo.open(elf.debugFile());
                        }
                        lines = l;
                    }
                }
            }
            return l;
        }
    }

    private record PerfMapState(PerfMap map, long mtime, long size, long checkedNs) {}

    private final Options options;
    private final ProcessMaps maps = new ProcessMaps();
    private final Map<String, Optional<Module>> modules = new ConcurrentHashMap<>();
    private final Map<Integer, PerfMapState> perfMaps = new ConcurrentHashMap<>();
    private volatile Optional<Module> vdso;
    private volatile KernelSymbols kernel;

    public Symbolizer(Options options) {
        this.options = options;
    }

    public Symbolizer() {
        this(Options.defaults());
    }

    public ProcessMaps maps() {
        return maps;
    }

    /** Feeds MMAP, FORK and COMM(exec) records to {@link #maps()} (forgetting that process's cached frames). */
    public void accept(PerfRecord r) {
        maps.accept(r);
        switch (r) {
            case PerfRecord.Mmap m -> frames.remove(m.pid());
            case PerfRecord.Comm c -> frames.remove(c.pid());
            case PerfRecord.Fork f -> frames.remove(f.pid());
            default -> {}
        }
    }

    /**
     * Known frames by pid, then by pc (and whether it is a return address): samples repeat the same
     * pcs, and a symbol lookup plus demangling costs microseconds. Unknown frames are not kept (a
     * mapping or a perf map may name them later); a process's entries go when its mappings change.
     */
    private final Map<Integer, Map<Long, Frame>> frames = new ConcurrentHashMap<>();

    private static final int MAX_CACHED_FRAMES = 1 << 16;

    /** The frame of a sampled pc (the leaf; use {@link #symbolize(int, long, boolean)} for return addresses). */
    public Frame symbolize(int pid, long pc) {
        return symbolize(pid, pc, false);
    }

    /**
     * The frame of {@code pc}. With {@code returnAddress} (a caller frame of a callchain) the
     * symbol and line are looked up at pc - 1, inside the call instruction, so a call that ends
     * a function or a line is attributed correctly; the frame still reports {@code pc}.
     */
    public Frame symbolize(int pid, long pc, boolean returnAddress) {
        Map<Long, Frame> cache = frames.computeIfAbsent(pid, k -> new ConcurrentHashMap<>());
        long key = returnAddress ? ~pc : pc;
        Frame hit = cache.get(key);
        if (hit != null) {
            return hit;
        }
        Frame f = resolve(pid, pc, returnAddress, false).getLast();
        if (f.known()) {
            if (cache.size() >= MAX_CACHED_FRAMES) {
                cache.clear();
            }
            cache.put(key, f);
        }
        return f;
    }

    /**
     * The frames of {@code pc}, innermost first: the inlined functions at the pc (when
     * {@link Options#inlines} and DWARF are there), then the out-of-line function, which is the
     * frame {@link #symbolize} returns (with the line of the call site of the first inlined one).
     */
    public List<Frame> symbolizeInlined(int pid, long pc, boolean returnAddress) {
        return resolve(pid, pc, returnAddress, options.inlines());
    }

    private List<Frame> resolve(int pid, long pc, boolean returnAddress, boolean inlines) {
        long q = returnAddress ? pc - 1 : pc;
        if (q < 0) { // upper half: the kernel (x86-64, aarch64)
            ElfSymbols.Hit k = kernelSymbols().lookup(q);
            return List.of(
                    k == null
                            ? new Frame(KERNEL, Frame.UNKNOWN, 0, pc, pc, null, 0, false)
                            : new Frame(
                                    KERNEL, KernelSymbols.PREFIX + k.name(), pc - k.start(), pc, pc, null, 0, false));
        }
        ProcessMaps.Mapping m = maps.find(pid, q);
        if (m == null || m.isAnonymous()) {
            Frame jit = perfMapFrame(pid, pc, q);
            if (jit != null) {
                return List.of(jit);
            }
            String module = m == null ? Frame.UNKNOWN : m.path().isEmpty() ? "//anon" : m.path();
            return List.of(new Frame(module, Frame.UNKNOWN, 0, pc, pc, null, 0, false));
        }
        Optional<Module> mod = m.isVdso() ? vdso() : m.isFile() ? module(m) : Optional.empty();
        if (mod.isEmpty()) {
            long rel = q - m.start() + m.pgoff();
            return List.of(new Frame(m.path(), Frame.UNKNOWN, 0, pc, rel + (pc - q), null, 0, false));
        }
        ElfSymbols elf = mod.get().elf;
        long vq = elf.pcToVaddr(q, m.start(), m.pgoff());
        long vaddr = vq + (pc - q);
        ElfSymbols.Hit hit = elf.lookup(vq);
        Frame base = hit == null
                ? new Frame(m.path(), moduleOffset(m.path(), vaddr), 0, pc, vaddr, null, 0, false)
                : new Frame(
                        m.path(),
                        Demangler.shared().demangle(hit.name()),
                        vaddr - hit.start(),
                        pc,
                        vaddr,
                        null,
                        0,
                        false);
        if (!options.lineInfo() && !inlines) {
            return List.of(base);
        }
        Optional<LineInfo> li = mod.get().lines();
        if (li.isEmpty()) {
            return List.of(base);
        }
        List<LineInfo.Location> locs = li.get().frames(vq);
        if (locs.isEmpty()) {
            return List.of(base);
        }
        if (!inlines) {
            // the out-of-line function's position: the call site of the outermost inlined frame
            LineInfo.Location outer = locs.getLast();
            return List.of(base.withSource(null, outer.file(), outer.line(), false));
        }
        List<Frame> out = new ArrayList<>(locs.size());
        for (int i = 0; i < locs.size(); i++) {
            LineInfo.Location l = locs.get(i);
            boolean last = i == locs.size() - 1;
            out.add(base.withSource(last ? null : l.function(), l.file(), l.line(), !last));
        }
        return out;
    }

    /**
     * The name of a pc in a module that no symbol or FDE covers: {@code libfoo.so+0x1234} (the
     * file's name and the link-time address, the form of perf's and glibc's backtraces), so that
     * such frames still say where they are and can be looked up with addr2line or objdump.
     */
    static String moduleOffset(String path, long vaddr) {
        int slash = path.lastIndexOf('/');
        return path.substring(slash + 1) + "+0x" + Long.toHexString(vaddr);
    }

    private Optional<Module> module(ProcessMaps.Mapping m) {
        String key = m.buildId().length > 0
                ? "bid:" + HexFormat.of().formatHex(m.buildId())
                : "file:" + m.path() + "|" + m.major() + ":" + m.minor() + "|" + m.inode();
        return modules.computeIfAbsent(key, k -> {
            Path p = Path.of(m.path());
            try {
                return Optional.of(new Module(ElfSymbols.load(p, options.debugFiles()), p));
            } catch (IOException | RuntimeException e) {
                return Optional.empty();
            }
        });
    }

    /** The kernel's symbols ({@code /proc/kallsyms}), read on the first kernel frame. */
    public KernelSymbols kernelSymbols() {
        KernelSymbols k = kernel;
        if (k == null) {
            synchronized (this) {
                k = kernel;
                if (k == null) {
                    k = KernelSymbols.load(options.kallsyms());
                    kernel = k;
                }
            }
        }
        return k;
    }

    /** This process's vDSO image (same kernel as the target), read from memory by the elf module. */
    private Optional<Module> vdso() {
        Optional<Module> v = vdso;
        if (v == null) {
            synchronized (this) {
                v = vdso;
                if (v == null) {
                    v = loadVdso();
                    vdso = v;
                }
            }
        }
        return v;
    }

    private static Optional<Module> loadVdso() {
        try {
            for (MapsEntry m : ProcFs.system().selfMaps()) {
                if (m.path().equals("[vdso]")) {
                    byte[] image = MemorySegment.ofAddress(m.start())
                            .reinterpret(m.end() - m.start())
                            .toArray(JAVA_BYTE);
                    return Optional.of(new Module(ElfSymbols.fromImage(VDSO, image), null));
                }
            }
        } catch (IOException | RuntimeException e) {
            // no vDSO symbols: frames stay "[unknown] ([vdso])"
        }
        return Optional.empty();
    }

    private Frame perfMapFrame(int pid, long pc, long q) {
        PerfMap map = perfMap(pid, false);
        PerfMap.Entry e = map == null ? null : map.lookup(q);
        if (e == null) {
            map = perfMap(pid, true);
            e = map == null ? null : map.lookup(q);
        }
        if (e == null) {
            return null;
        }
        return new Frame(
                PerfMap.pathFor(options.perfMapDir(), pid).toString(),
                e.name(),
                pc - e.start(),
                pc,
                pc,
                null,
                0,
                false);
    }

    /** The perf map of pid; with {@code recheck}, re-reads it when it changed (at most once a second). */
    private PerfMap perfMap(int pid, boolean recheck) {
        PerfMapState s = perfMaps.get(pid);
        long now = System.nanoTime();
        if (s != null && (!recheck || now - s.checkedNs() < PERF_MAP_RESTAT_NS)) {
            return s.map();
        }
        Path file = PerfMap.pathFor(options.perfMapDir(), pid);
        PerfMap map = s == null ? null : s.map();
        long mtime = -1;
        long size = -1;
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            mtime = a.lastModifiedTime().toMillis();
            size = a.size();
            if (s == null || s.mtime() != mtime || s.size() != size) {
                map = PerfMap.load(file);
            }
        } catch (IOException e) {
            map = null;
        }
        perfMaps.put(pid, new PerfMapState(map, mtime, size, now));
        return map;
    }

    /** Forgets the cached perf map of pid (it will be read again on the next JIT lookup). */
    public void reloadPerfMap(int pid) {
        perfMaps.remove(pid);
    }

    /** The cached symbols of a module path, loading them when needed (tests, tools). */
    public Optional<ElfSymbols> symbols(ProcessMaps.Mapping m) {
        return module(m).map(x -> x.elf);
    }

    @Override
    public void close() {
        for (Optional<Module> m : modules.values()) {
            m.ifPresent(x -> {
                Optional<LineInfo> l = x.lines;
                if (l != null) {
                    l.ifPresent(LineInfo::close);
                }
            });
        }
        modules.clear();
    }
}
