package org.rocprofsys.sampler.symbols;

import static org.rocprofsys.elf.ElfConstants.ET_DYN;
import static org.rocprofsys.elf.ElfConstants.SHN_UNDEF;
import static org.rocprofsys.elf.ElfConstants.SHT_SYMTAB;
import static org.rocprofsys.elf.ElfConstants.STT_FUNC;
import static org.rocprofsys.elf.ElfConstants.STT_GNU_IFUNC;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.rocprofsys.elf.DebugFiles;
import org.rocprofsys.elf.ElfFile;
import org.rocprofsys.elf.ElfSymbol;
import org.rocprofsys.elf.EntryPoint;
import org.rocprofsys.elf.FrameDescription;
import org.rocprofsys.elf.ProgramHeader;
import org.rocprofsys.sampler.AddressSearch;

/**
 * The function symbols, build-id and loadable segments of one ELF file, read once through the
 * elf module's {@link ElfFile} and kept as sorted Java arrays.
 * Symbols are the STT_FUNC and STT_GNU_IFUNC entries of {@code .symtab} and {@code .dynsym}; a
 * stripped file has only the latter, so its separate debug file's {@code .symtab} is read too
 * when {@link DebugFiles} finds one (build-id or {@code .gnu_debuglink}, as perf and gdb look).
 * Code that no symbol covers but an FDE of {@code .eh_frame} does is a function of its own named
 * {@code func_0x<start>} in the program, {@code libA.so!func_0x<start>} in a library (each FDE is a function, as Dyninst's parser takes them; the start
 * address names it so that every sample of it adds up to one name, and the instrumenter gives
 * the same name to the same function). Addresses are link-time virtual addresses ("vaddr"):
 * {@link #fileOffsetToVaddr} maps a file offset (from a mapping's pgoff) to one, which covers
 * PIE/shared objects (ET_DYN, vaddr near 0) and fixed executables (ET_EXEC) alike.
 */
public final class ElfSymbols {
    /** A function symbol: link-time start address and size (0 where the symbol gives none). */
    public record Symbol(String name, long start, long size) {
        public long end() {
            return start + size;
        }
    }

    /** The result of {@link #lookup}: the symbol and the vaddr's offset into it. */
    public record Hit(String name, long offset, long size, long start) {}

    /** The name of a function known only from its FDE. */
    public static String syntheticName(long start) {
        return "func_0x" + Long.toHexString(start);
    }

    /**
     * The name of a function of a shared library known only from its FDE: {@code
     * libA.so!func_0x1139}. Two stripped libraries have functions at the same offsets; without
     * the module their samples would add up to one name, where perf shows them apart.
     */
    public static String syntheticName(String libraryPath, long start) {
        return libraryPath.substring(libraryPath.lastIndexOf('/') + 1) + "!" + syntheticName(start);
    }

    private final String path;
    private final Path debugFile;
    private final int fdeFunctions;
    private final int type;
    private final byte[] buildId;
    private final boolean hasSymtab;
    private final List<ProgramHeader> segments;
    private final long[] starts;
    private final long[] ends;
    private final String[] names;

    private ElfSymbols(
            String path,
            Path debugFile,
            int fdeFunctions,
            int type,
            byte[] buildId,
            boolean hasSymtab,
            List<ProgramHeader> segments,
            List<Symbol> symbols) {
        this.path = path;
        this.debugFile = debugFile;
        this.fdeFunctions = fdeFunctions;
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
        for (ProgramHeader s : segments) {
            if (s.containsInMemory(vaddr)) {
                return s.vaddr() + s.memsz();
            }
        }
        return vaddr + 1;
    }

    /** Reads an ELF file and its debug file under /usr/lib/debug. @throws IOException when it cannot be opened or is not ELF. */
    public static ElfSymbols load(Path file) throws IOException {
        return load(file, DebugFiles.system());
    }

    /** Reads an ELF file, looking for its separate debug file with {@code debugFiles}. */
    public static ElfSymbols load(Path file, DebugFiles debugFiles) throws IOException {
        ElfFile elf = ElfFile.open(file);
        return read(file.toString(), elf, debugFiles.open(elf).orElse(null));
    }

    /** Reads an ELF image held in memory (the vDSO), {@code name} being its module name. */
    public static ElfSymbols fromImage(String name, byte[] image) throws IOException {
        return read(name, ElfFile.of(name, image), null);
    }

    private static ElfSymbols read(String path, ElfFile elf, ElfFile debug) {
        boolean hasSymtab = elf.sections().stream().anyMatch(s -> s.type() == SHT_SYMTAB);
        List<Symbol> symbols = new ArrayList<>();
        addFunctions(elf.symbols(), symbols);
        if (debug != null && !hasSymtab) {
            addFunctions(debug.symtab(), symbols);
        }
        symbols = dedupe(symbols);
        List<FrameDescription> fdes = elf.frameDescriptions();
        if (fdes.isEmpty() && debug != null) {
            fdes = debug.frameDescriptions();
        }
        int before = symbols.size();
        // a file whose _start passes main is the program; any other keeps its name in its functions'
        long main = EntryPoint.main(elf).orElse(-1);
        String library = main == -1 ? path : null;
        symbols = withFdeFunctions(symbols, fdes, main, library);
        return new ElfSymbols(
                path,
                debug == null ? null : debug.path(),
                symbols.size() - before,
                elf.type(),
                elf.buildId(),
                hasSymtab,
                elf.loadSegments(),
                symbols);
    }

    private static void addFunctions(List<ElfSymbol> from, List<Symbol> to) {
        for (ElfSymbol s : from) {
            // absolute (SHN_ABS) functions count too, as perf counts them
            boolean function = s.type() == STT_FUNC || s.type() == STT_GNU_IFUNC;
            if (function
                    && s.shndx() != SHN_UNDEF
                    && s.value() != 0
                    && !s.name().isEmpty()) {
                to.add(new Symbol(s.name(), s.value(), s.size()));
            }
        }
    }

    /**
     * Adds a {@link #syntheticName} function for each FDE whose start no symbol covers (named
     * {@code main} where {@code _start} passes it, see {@link EntryPoint}) (a symbol
     * without size covers nothing but its own start: it reaches to the next function, which the
     * FDE's may be). {@code symbols} is sorted and deduplicated; so is the result.
     */
    private static List<Symbol> withFdeFunctions(
            List<Symbol> symbols, List<FrameDescription> fdes, long main, String library) {
        if (fdes.isEmpty()) {
            return symbols;
        }
        List<Symbol> out = new ArrayList<>(symbols.size() + fdes.size());
        int i = 0;
        long coveredTo = 0; // end of the sized symbols that start at or before the FDE
        for (FrameDescription f : fdes) {
            while (i < symbols.size() && Long.compareUnsigned(symbols.get(i).start(), f.begin()) <= 0) {
                Symbol s = symbols.get(i++);
                out.add(s);
                if (s.size() > 0 && Long.compareUnsigned(s.end(), coveredTo) > 0) {
                    coveredTo = s.end();
                }
            }
            boolean startsHere = !out.isEmpty() && out.getLast().start() == f.begin();
            if (!startsHere && Long.compareUnsigned(f.begin(), coveredTo) >= 0) {
                String name = f.begin() == main
                        ? "main"
                        : library != null ? syntheticName(library, f.begin()) : syntheticName(f.begin());
                out.add(new Symbol(name, f.begin(), f.size()));
                coveredTo = f.end();
            }
        }
        while (i < symbols.size()) {
            out.add(symbols.get(i++));
        }
        return out;
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

    /** The function containing {@code vaddr}, or null. */
    public Hit lookup(long vaddr) {
        int found = AddressSearch.floor(starts, vaddr);
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
        for (ProgramHeader s : segments) {
            if (fileOffset >= s.offset() && fileOffset < s.offset() + Math.max(s.filesz(), 1)) {
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

    /** ET_EXEC or ET_DYN (PIE executables and shared objects), or another e_type. */
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

    /** The separate debug file whose symbols were read, or null. */
    public Path debugFile() {
        return debugFile;
    }

    /** How many functions are known only from their FDEs ({@link #syntheticName}). */
    public int fdeFunctions() {
        return fdeFunctions;
    }

    /** True when the file has a {@code .symtab}; false for stripped files (only {@code .dynsym}). */
    public boolean hasSymtab() {
        return hasSymtab;
    }

    public List<ProgramHeader> segments() {
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
