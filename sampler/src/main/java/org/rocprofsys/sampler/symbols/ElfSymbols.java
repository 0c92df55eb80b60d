package org.rocprofsys.sampler.symbols;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import org.rocprofsys.sampler.symbols.Native.Elf;

/**
 * The function symbols, build-id and loadable segments of one ELF file, read once through libelf
 * (FFM) and kept as sorted Java arrays; no native state is held after {@link #load}.
 * Symbols are the STT_FUNC and STT_GNU_IFUNC entries of {@code .symtab} and {@code .dynsym}
 * (a stripped file has only the latter). Addresses are link-time virtual addresses ("vaddr"):
 * {@link #fileOffsetToVaddr} maps a file offset (from a mapping's pgoff) to one, which covers
 * PIE/shared objects (ET_DYN, vaddr near 0) and fixed executables (ET_EXEC) alike.
 */
public final class ElfSymbols {
    /** ELF e_type values. */
    public static final int ET_EXEC = 2;
    public static final int ET_DYN = 3;

    private static final int SHT_SYMTAB = 2;
    private static final int SHT_NOTE = 7;
    private static final int SHT_DYNSYM = 11;
    private static final int STT_FUNC = 2;
    private static final int STT_GNU_IFUNC = 10;
    private static final int PT_LOAD = 1;
    private static final int PF_X = 1;
    private static final int NT_GNU_BUILD_ID = 3;

    /** A function symbol: link-time start address and size (0 where the symbol gives none). */
    public record Symbol(String name, long start, long size) {
        public long end() {
            return start + size;
        }
    }

    /** The result of {@link #lookup}: the symbol and the vaddr's offset into it. */
    public record Hit(String name, long offset, long size, long start) {
    }

    /** One PT_LOAD program header. */
    public record Segment(long vaddr, long offset, long fileSize, long memSize, int flags) {
        public boolean executable() {
            return (flags & PF_X) != 0;
        }
    }

    private final String path;
    private final int type;
    private final byte[] buildId;
    private final boolean hasSymtab;
    private final List<Segment> segments;
    private final long[] starts;
    private final long[] ends;
    private final String[] names;

    private ElfSymbols(String path, int type, byte[] buildId, boolean hasSymtab, List<Segment> segments,
            List<Symbol> symbols) {
        this.path = path;
        this.type = type;
        this.buildId = buildId;
        this.hasSymtab = hasSymtab;
        this.segments = List.copyOf(segments);
        int n = symbols.size();
        this.starts = new long[n];
        this.ends = new long[n];
        this.names = new String[n];
        for (int i = 0; i < n; i++) {
            Symbol s = symbols.get(i);
            starts[i] = s.start();
            names[i] = s.name();
            // a symbol without size reaches to the next symbol (as perf does), capped at its segment's end
            long end = s.size() > 0 ? s.end() : (i + 1 < n ? symbols.get(i + 1).start() : segmentEnd(s.start()));
            ends[i] = Math.max(end, s.start() + 1);
        }
    }

    private long segmentEnd(long vaddr) {
        for (Segment s : segments) {
            if (vaddr >= s.vaddr() && vaddr < s.vaddr() + s.memSize()) {
                return s.vaddr() + s.memSize();
            }
        }
        return vaddr + 1;
    }

    /** Reads an ELF file. @throws IOException when it cannot be opened or is not ELF. */
    public static ElfSymbols load(Path file) throws IOException {
        String p = file.toString();
        int fd = Native.Libc.openRead(p);
        if (fd < 0) {
            throw new IOException("cannot open " + p);
        }
        try {
            MemorySegment elf;
            try {
                elf = (MemorySegment) Elf.ELF_BEGIN.invokeExact(fd, Elf.ELF_C_READ_MMAP, MemorySegment.NULL);
            } catch (Throwable t) {
                throw Native.rethrow(t);
            }
            if (elf.equals(MemorySegment.NULL)) {
                throw new IOException("elf_begin " + p + ": " + Elf.errmsg());
            }
            try {
                return read(p, elf);
            } finally {
                end(elf);
            }
        } finally {
            Native.Libc.close(fd);
        }
    }

    /** Reads an ELF image held in memory (the vDSO), {@code name} being its module name. */
    public static ElfSymbols fromImage(String name, byte[] image) throws IOException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(image.length, 16);
            MemorySegment.copy(image, 0, buf, JAVA_BYTE, 0, image.length);
            MemorySegment elf;
            try {
                elf = (MemorySegment) Elf.ELF_MEMORY.invokeExact(buf, (long) image.length);
            } catch (Throwable t) {
                throw Native.rethrow(t);
            }
            if (elf.equals(MemorySegment.NULL)) {
                throw new IOException("elf_memory " + name + ": " + Elf.errmsg());
            }
            try {
                return read(name, elf);
            } finally {
                end(elf);
            }
        }
    }

    private static void end(MemorySegment elf) {
        try {
            int rc = (int) Elf.ELF_END.invokeExact(elf);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    private static ElfSymbols read(String path, MemorySegment elf) throws IOException {
        try (Arena a = Arena.ofConfined()) {
            if ((int) Elf.ELF_KIND.invokeExact(elf) != Elf.ELF_K_ELF) {
                throw new IOException(path + " is not an ELF file");
            }
            MemorySegment ehdr = a.allocate(64, 8);
            if (((MemorySegment) Elf.GELF_GETEHDR.invokeExact(elf, ehdr)).equals(MemorySegment.NULL)) {
                throw new IOException("gelf_getehdr " + path + ": " + Elf.errmsg());
            }
            int type = Short.toUnsignedInt(ehdr.get(JAVA_SHORT, 16));

            List<Segment> segments = new ArrayList<>();
            MemorySegment count = a.allocate(JAVA_LONG);
            if ((int) Elf.ELF_GETPHDRNUM.invokeExact(elf, count) == 0) {
                long n = count.get(JAVA_LONG, 0);
                MemorySegment phdr = a.allocate(56, 8);
                for (int i = 0; i < n; i++) {
                    if (((MemorySegment) Elf.GELF_GETPHDR.invokeExact(elf, i, phdr)).equals(MemorySegment.NULL)) {
                        continue;
                    }
                    if (phdr.get(JAVA_INT, 0) == PT_LOAD) {
                        segments.add(new Segment(phdr.get(JAVA_LONG, 16), phdr.get(JAVA_LONG, 8),
                                phdr.get(JAVA_LONG, 32), phdr.get(JAVA_LONG, 40), phdr.get(JAVA_INT, 4)));
                    }
                }
            }

            List<Symbol> symbols = new ArrayList<>();
            byte[] buildId = new byte[0];
            boolean hasSymtab = false;
            MemorySegment shdr = a.allocate(64, 8);
            MemorySegment sym = a.allocate(24, 8);
            MemorySegment scn = MemorySegment.NULL;
            while (true) {
                scn = (MemorySegment) Elf.ELF_NEXTSCN.invokeExact(elf, scn);
                if (scn.equals(MemorySegment.NULL)) {
                    break;
                }
                if (((MemorySegment) Elf.GELF_GETSHDR.invokeExact(scn, shdr)).equals(MemorySegment.NULL)) {
                    continue;
                }
                int shType = shdr.get(JAVA_INT, 4);
                if (shType == SHT_NOTE && buildId.length == 0) {
                    MemorySegment data = (MemorySegment) Elf.ELF_GETDATA.invokeExact(scn, MemorySegment.NULL);
                    if (!data.equals(MemorySegment.NULL)) {
                        buildId = parseBuildId(data);
                    }
                } else if (shType == SHT_SYMTAB || shType == SHT_DYNSYM) {
                    hasSymtab |= shType == SHT_SYMTAB;
                    long entsize = shdr.get(JAVA_LONG, 56);
                    long size = shdr.get(JAVA_LONG, 32);
                    long strndx = Integer.toUnsignedLong(shdr.get(JAVA_INT, 40));
                    if (entsize <= 0) {
                        continue;
                    }
                    MemorySegment data = (MemorySegment) Elf.ELF_GETDATA.invokeExact(scn, MemorySegment.NULL);
                    if (data.equals(MemorySegment.NULL)) {
                        continue;
                    }
                    int n = (int) (size / entsize);
                    for (int i = 1; i < n; i++) {
                        if (((MemorySegment) Elf.GELF_GETSYM.invokeExact(data, i, sym)).equals(MemorySegment.NULL)) {
                            continue;
                        }
                        int info = Byte.toUnsignedInt(sym.get(JAVA_BYTE, 4));
                        int stType = info & 0xf;
                        int shndx = Short.toUnsignedInt(sym.get(JAVA_SHORT, 6));
                        long value = sym.get(JAVA_LONG, 8);
                        if ((stType != STT_FUNC && stType != STT_GNU_IFUNC) || shndx == 0 || value == 0) {
                            continue;
                        }
                        String name = Native.cstr((MemorySegment) Elf.ELF_STRPTR.invokeExact(elf, strndx,
                                Integer.toUnsignedLong(sym.get(JAVA_INT, 0))));
                        if (name == null || name.isEmpty()) {
                            continue;
                        }
                        symbols.add(new Symbol(name, value, sym.get(JAVA_LONG, 16)));
                    }
                }
            }
            return new ElfSymbols(path, type, buildId, hasSymtab, segments, dedupe(symbols));
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Sorts by address and keeps one symbol per address: the one with a size, then the shortest
     * name among those (so {@code memcpy} wins over {@code __memcpy_avx_unaligned} aliases only when
     * it has a size too; .symtab and .dynsym duplicates collapse).
     */
    private static List<Symbol> dedupe(List<Symbol> symbols) {
        symbols.sort((x, y) -> {
            int c = Long.compareUnsigned(x.start(), y.start());
            if (c != 0) {
                return c;
            }
            c = Boolean.compare(x.size() == 0, y.size() == 0);
            if (c != 0) {
                return c;
            }
            c = Integer.compare(leadingUnderscores(x.name()), leadingUnderscores(y.name()));
            return c != 0 ? c : x.name().compareTo(y.name());
        });
        List<Symbol> out = new ArrayList<>(symbols.size());
        for (Symbol s : symbols) {
            if (out.isEmpty() || out.getLast().start() != s.start()) {
                out.add(s);
            }
        }
        return out;
    }

    private static int leadingUnderscores(String s) {
        int i = 0;
        while (i < s.length() && s.charAt(i) == '_') {
            i++;
        }
        return i;
    }

    /** Elf_Data: d_buf @0, d_size @16. Notes: namesz, descsz, type, name (4-aligned), desc (4-aligned). */
    private static byte[] parseBuildId(MemorySegment data) {
        MemorySegment d = data.reinterpret(40);
        MemorySegment buf = d.get(ADDRESS, 0);
        long size = d.get(JAVA_LONG, 16);
        if (buf.equals(MemorySegment.NULL) || size <= 0) {
            return new byte[0];
        }
        MemorySegment notes = buf.reinterpret(size);
        long off = 0;
        while (off + 12 <= size) {
            int namesz = notes.get(JAVA_INT.withByteAlignment(1), off);
            int descsz = notes.get(JAVA_INT.withByteAlignment(1), off + 4);
            int type = notes.get(JAVA_INT.withByteAlignment(1), off + 8);
            long name = off + 12;
            long desc = name + align4(namesz);
            if (namesz < 0 || descsz < 0 || desc + descsz > size) {
                break;
            }
            if (type == NT_GNU_BUILD_ID && namesz == 4 && notes.get(JAVA_BYTE, name) == 'G'
                    && notes.get(JAVA_BYTE, name + 1) == 'N' && notes.get(JAVA_BYTE, name + 2) == 'U') {
                return notes.asSlice(desc, descsz).toArray(JAVA_BYTE);
            }
            off = desc + align4(descsz);
        }
        return new byte[0];
    }

    private static long align4(long v) {
        return (v + 3) & ~3L;
    }

    /** The function containing {@code vaddr}, or null. */
    public Hit lookup(long vaddr) {
        int lo = 0;
        int hi = starts.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(starts[mid], vaddr) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        // the nearest start may be a small nested symbol; look back a few for an enclosing one
        for (int i = found, k = 0; i >= 0 && k < 8; i--, k++) {
            if (Long.compareUnsigned(vaddr, ends[i]) < 0) {
                return new Hit(names[i], vaddr - starts[i], ends[i] - starts[i], starts[i]);
            }
        }
        return null;
    }

    /**
     * The link-time vaddr of a file offset, through the PT_LOAD that holds it; -1 when none does.
     */
    public long fileOffsetToVaddr(long fileOffset) {
        for (Segment s : segments) {
            if (fileOffset >= s.offset() && fileOffset < s.offset() + Math.max(s.fileSize(), 1)) {
                return s.vaddr() + (fileOffset - s.offset());
            }
        }
        return -1;
    }

    /**
     * The vaddr of a runtime pc inside a mapping of this file ({@code mapStart}, {@code pgoff} of
     * the mmap). Falls back to the plain file offset for files without a matching PT_LOAD.
     */
    public long pcToVaddr(long pc, long mapStart, long pgoff) {
        long fileOffset = pc - mapStart + pgoff;
        long v = fileOffsetToVaddr(fileOffset);
        return v >= 0 ? v : fileOffset;
    }

    public String path() {
        return path;
    }

    /** {@link #ET_EXEC} or {@link #ET_DYN} (PIE executables and shared objects), or another e_type. */
    public int type() {
        return type;
    }

    public boolean isPositionIndependent() {
        return type == ET_DYN;
    }

    /** The NT_GNU_BUILD_ID note, empty when the file has none. */
    public byte[] buildId() {
        return buildId.clone();
    }

    public String buildIdHex() {
        return HexFormat.of().formatHex(buildId);
    }

    /** True when the file has a {@code .symtab}; false for stripped files (only {@code .dynsym}). */
    public boolean hasSymtab() {
        return hasSymtab;
    }

    public List<Segment> segments() {
        return segments;
    }

    public int size() {
        return starts.length;
    }

    /** All function symbols, by address (one per address), sizes as {@link #lookup} uses them. */
    public List<Symbol> symbols() {
        List<Symbol> out = new ArrayList<>(starts.length);
        for (int i = 0; i < starts.length; i++) {
            out.add(new Symbol(names[i], starts[i], ends[i] - starts[i]));
        }
        return out;
    }

    /** The symbol named exactly {@code name} (mangled form), or null. */
    public Symbol find(String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return new Symbol(names[i], starts[i], ends[i] - starts[i]);
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return "ElfSymbols[" + path + ", " + starts.length + " functions, build-id " + buildIdHex() + "]";
    }
}
