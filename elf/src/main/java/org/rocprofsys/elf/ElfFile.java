package org.rocprofsys.elf;

import static org.rocprofsys.elf.ElfConstants.*;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * A read-only model of an ELF64 little-endian x86-64 file: header, program headers, named
 * sections, .symtab/.dynsym symbols and dynamic entries.
 *
 * <p>The file is memory-mapped (not copied) because shared libraries with debug information can
 * be hundreds of megabytes; the mapping is released by the garbage collector, so there is nothing
 * to close. {@link #segmentAt} hands out native slices that Capstone can decode in place.
 */
public final class ElfFile {

    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final Path path;
    private final MemorySegment data;
    private final int type;
    private final int machine;
    private final int osAbi;
    private final long entry;
    private final long phoff;
    private final int phentsize;
    private final int phnum;
    private final long shoff;
    private final int shentsize;
    private final int shnum;
    private final int shstrndx;
    private final int flags;
    private final List<ProgramHeader> programHeaders;
    private final List<SectionHeader> sections;
    /** Parsed on first use: most callers (a launcher reading a note) never look at symbols. */
    private volatile List<ElfSymbol> symtab;

    private volatile List<ElfSymbol> dynsym;
    private volatile List<FrameDescription> frameDescriptions;
    private final List<DynamicEntry> dynamic;

    private ElfFile(Path path, MemorySegment data) throws ElfFormatException {
        this.path = path;
        this.data = data;
        checkIdent();
        type = u16(16);
        machine = u16(18);
        if (machine != EM_X86_64) {
            throw new ElfFormatException(
                    path + ": not an x86-64 ELF file (machine " + machine + ", " + machineName(machine) + ")");
        }
        osAbi = Byte.toUnsignedInt(data.get(ValueLayout.JAVA_BYTE, 7));
        entry = data.get(U64, 24);
        phoff = data.get(U64, 32);
        shoff = data.get(U64, 40);
        flags = data.get(U32, 48);
        phentsize = u16(54);
        int rawPhnum = u16(56);
        shentsize = u16(58);
        int rawShnum = u16(60);
        int rawShstrndx = u16(62);

        // Extended numbering (PN_XNUM / SHN_XINDEX): the real counts live in section header 0.
        long realShnum = rawShnum;
        long realShstrndx = rawShstrndx;
        long realPhnum = rawPhnum;
        if (shoff != 0 && (rawShnum == 0 || rawShstrndx == 0xffff || rawPhnum == 0xffff)) {
            requireRange(shoff, SHDR_SIZE, "section header 0");
            if (rawShnum == 0) realShnum = data.get(U64, shoff + 32);
            if (rawShstrndx == 0xffff) realShstrndx = Integer.toUnsignedLong(data.get(U32, shoff + 40));
            if (rawPhnum == 0xffff) realPhnum = Integer.toUnsignedLong(data.get(U32, shoff + 44));
        }
        if (realShnum > 1_000_000 || realPhnum > 65_536) {
            throw new ElfFormatException(
                    path + ": implausible table sizes (" + realPhnum + " program headers, " + realShnum + " sections)");
        }
        phnum = (int) realPhnum;
        shnum = shoff == 0 ? 0 : (int) realShnum;
        shstrndx = (int) realShstrndx;

        programHeaders = readProgramHeaders();
        sections = readSections();
        checkSymbolTables(SHT_SYMTAB);
        checkSymbolTables(SHT_DYNSYM);
        dynamic = readDynamic();
    }

    /** Parses an ELF image held in memory (the vDSO, tests); {@code name} stands for its path in messages. */
    public static ElfFile of(String name, byte[] image) throws ElfFormatException {
        MemorySegment seg = Arena.ofAuto().allocate(Math.max(image.length, 1), 16);
        MemorySegment.copy(image, 0, seg, ValueLayout.JAVA_BYTE, 0, image.length);
        return new ElfFile(Path.of(name), seg.asSlice(0, image.length).asReadOnly());
    }

    /** Maps and parses {@code path}. */
    public static ElfFile open(Path path) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < 16) {
                throw new ElfFormatException(path + ": not an ELF file (" + size + " bytes)");
            }
            MemorySegment seg = ch.map(FileChannel.MapMode.READ_ONLY, 0, size, Arena.ofAuto());
            return new ElfFile(path, seg);
        }
    }

    private void checkIdent() throws ElfFormatException {
        if (data.byteSize() < 4
                || data.get(ValueLayout.JAVA_BYTE, 0) != 0x7f
                || data.get(ValueLayout.JAVA_BYTE, 1) != 'E'
                || data.get(ValueLayout.JAVA_BYTE, 2) != 'L'
                || data.get(ValueLayout.JAVA_BYTE, 3) != 'F') {
            throw new ElfFormatException(path + ": not an ELF file (bad magic)");
        }
        int cls = data.get(ValueLayout.JAVA_BYTE, 4);
        if (cls != 2) {
            throw new ElfFormatException(
                    path + ": not a 64-bit ELF file (class " + cls + (cls == 1 ? ", ELFCLASS32" : "") + ")");
        }
        int enc = data.get(ValueLayout.JAVA_BYTE, 5);
        if (enc != 1) {
            throw new ElfFormatException(path + ": not a little-endian ELF file (data encoding " + enc
                    + (enc == 2 ? ", ELFDATA2MSB" : "") + ")");
        }
        requireRange(0, EHDR_SIZE, "ELF header");
    }

    static String machineName(int machine) {
        return switch (machine) {
            case 0 -> "none";
            case 2 -> "SPARC";
            case 3 -> "i386";
            case 8 -> "MIPS";
            case 20 -> "PowerPC";
            case 21 -> "PowerPC64";
            case 22 -> "S/390";
            case 40 -> "ARM";
            case 43 -> "SPARC V9";
            case 50 -> "IA-64";
            case 62 -> "x86-64";
            case 183 -> "AArch64";
            case 224 -> "AMDGPU";
            case 243 -> "RISC-V";
            case 258 -> "LoongArch";
            default -> "unknown";
        };
    }

    private void requireRange(long offset, long length, String what) throws ElfFormatException {
        if (offset < 0 || length < 0 || offset > data.byteSize() || data.byteSize() - offset < length) {
            throw new ElfFormatException(path + ": truncated ELF file: " + what + " at offset 0x"
                    + Long.toHexString(offset) + " (+" + length + " bytes) lies beyond the end of the file ("
                    + data.byteSize() + " bytes)");
        }
    }

    private int u16(long off) {
        return Short.toUnsignedInt(data.get(U16, off));
    }

    private List<ProgramHeader> readProgramHeaders() throws ElfFormatException {
        if (phnum == 0) return List.of();
        if (phentsize < PHDR_SIZE) {
            throw new ElfFormatException(path + ": program header entry size " + phentsize + " < " + PHDR_SIZE);
        }
        requireRange(phoff, (long) phnum * phentsize, "program-header table");
        List<ProgramHeader> out = new ArrayList<>(phnum);
        for (int i = 0; i < phnum; i++) {
            long o = phoff + (long) i * phentsize;
            out.add(new ProgramHeader(
                    data.get(U32, o),
                    data.get(U32, o + 4),
                    data.get(U64, o + 8),
                    data.get(U64, o + 16),
                    data.get(U64, o + 24),
                    data.get(U64, o + 32),
                    data.get(U64, o + 40),
                    data.get(U64, o + 48)));
        }
        return Collections.unmodifiableList(out);
    }

    private List<SectionHeader> readSections() throws ElfFormatException {
        if (shnum == 0) return List.of();
        if (shentsize < SHDR_SIZE) {
            throw new ElfFormatException(path + ": section header entry size " + shentsize + " < " + SHDR_SIZE);
        }
        requireRange(shoff, (long) shnum * shentsize, "section-header table");
        long strOff = 0;
        long strSize = 0;
        if (shstrndx > 0 && shstrndx < shnum) {
            long so = shoff + (long) shstrndx * shentsize;
            strOff = data.get(U64, so + 24);
            strSize = data.get(U64, so + 32);
            requireRange(strOff, strSize, "section-name string table");
        }
        List<SectionHeader> out = new ArrayList<>(shnum);
        for (int i = 0; i < shnum; i++) {
            long o = shoff + (long) i * shentsize;
            int nameIdx = data.get(U32, o);
            String name = strSize == 0 ? "" : string(strOff, strSize, Integer.toUnsignedLong(nameIdx));
            out.add(new SectionHeader(
                    i,
                    name,
                    nameIdx,
                    data.get(U32, o + 4),
                    data.get(U64, o + 8),
                    data.get(U64, o + 16),
                    data.get(U64, o + 24),
                    data.get(U64, o + 32),
                    data.get(U32, o + 40),
                    data.get(U32, o + 44),
                    data.get(U64, o + 48),
                    data.get(U64, o + 56)));
        }
        return Collections.unmodifiableList(out);
    }

    /** NUL-terminated string at {@code index} of a string table; "" when out of range. */
    private String string(long tableOff, long tableSize, long index) {
        if (index >= tableSize) return "";
        long start = tableOff + index;
        long end = tableOff + tableSize;
        long p = start;
        while (p < end && data.get(ValueLayout.JAVA_BYTE, p) != 0) p++;
        byte[] b = data.asSlice(start, p - start).toArray(ValueLayout.JAVA_BYTE);
        return new String(b, StandardCharsets.UTF_8);
    }

    /** The table-level checks of the symbol sections, done at open: what is left cannot fail. */
    private void checkSymbolTables(int shType) throws ElfFormatException {
        for (SectionHeader sh : sections) {
            if (sh.type() != shType) continue;
            if (entrySize(sh) < SYM_SIZE) {
                throw new ElfFormatException(
                        path + ": " + sh.name() + " entry size " + entrySize(sh) + " < " + SYM_SIZE);
            }
            requireRange(sh.offset(), sh.size(), sh.name() + " symbol table");
            if (sh.link() <= 0 || sh.link() >= sections.size()) {
                throw new ElfFormatException(
                        path + ": " + sh.name() + " links to no string table (sh_link " + sh.link() + ")");
            }
            SectionHeader strs = sections.get(sh.link());
            requireRange(strs.offset(), strs.size(), sh.name() + " string table " + strs.name());
        }
    }

    private static long entrySize(SectionHeader sh) {
        return sh.entsize() == 0 ? SYM_SIZE : sh.entsize();
    }

    /** The symbols of every section of {@code shType} (checked by {@link #checkSymbolTables}). */
    private List<ElfSymbol> readSymbols(int shType, ElfSymbol.Table table) {
        List<ElfSymbol> out = new ArrayList<>();
        for (SectionHeader sh : sections) {
            if (sh.type() != shType) continue;
            long entsize = entrySize(sh);
            SectionHeader strs = sections.get(sh.link());
            long count = sh.size() / entsize;
            for (long i = 0; i < count; i++) {
                long o = sh.offset() + i * entsize;
                int nameIdx = data.get(U32, o);
                int info = Byte.toUnsignedInt(data.get(ValueLayout.JAVA_BYTE, o + 4));
                int other = Byte.toUnsignedInt(data.get(ValueLayout.JAVA_BYTE, o + 5));
                out.add(new ElfSymbol(
                        string(strs.offset(), strs.size(), Integer.toUnsignedLong(nameIdx)),
                        data.get(U64, o + 8),
                        data.get(U64, o + 16),
                        info & 0xf,
                        info >>> 4,
                        other & 0x3,
                        u16(o + 6),
                        table));
            }
        }
        return Collections.unmodifiableList(out);
    }

    private List<DynamicEntry> readDynamic() throws ElfFormatException {
        Optional<ProgramHeader> dyn =
                programHeaders.stream().filter(p -> p.type() == PT_DYNAMIC).findFirst();
        if (dyn.isEmpty()) return List.of();
        ProgramHeader p = dyn.get();
        requireRange(p.offset(), p.filesz(), "dynamic segment");
        List<DynamicEntry> out = new ArrayList<>();
        for (long o = p.offset(); o + DYN_SIZE <= p.offset() + p.filesz(); o += DYN_SIZE) {
            long tag = data.get(U64, o);
            if (tag == DT_NULL) break;
            out.add(new DynamicEntry(tag, data.get(U64, o + 8)));
        }
        return Collections.unmodifiableList(out);
    }

    // ---- header ---------------------------------------------------------------------------

    public Path path() {
        return path;
    }
    /** e_type: {@link #ET_EXEC}, {@link #ET_DYN} (shared objects and PIE executables), ... */
    public int type() {
        return type;
    }

    public int machine() {
        return machine;
    }

    public int osAbi() {
        return osAbi;
    }

    public long entry() {
        return entry;
    }

    public long phoff() {
        return phoff;
    }

    public int phentsize() {
        return phentsize;
    }
    /** Number of program headers (PN_XNUM resolved). */
    public int phnum() {
        return phnum;
    }

    public long shoff() {
        return shoff;
    }

    public int shentsize() {
        return shentsize;
    }
    /** Number of section headers (extended numbering resolved). */
    public int shnum() {
        return shnum;
    }

    public int shstrndx() {
        return shstrndx;
    }

    public int flags() {
        return flags;
    }

    public long fileSize() {
        return data.byteSize();
    }

    /** ET_DYN: position independent (shared library or PIE executable); addresses are bias-relative. */
    public boolean positionIndependent() {
        return type == ET_DYN;
    }

    /** Whether the file has a PT_INTERP (an executable, PIE or not, rather than a plain library). */
    public boolean hasInterpreter() {
        return programHeaders.stream().anyMatch(p -> p.type() == PT_INTERP);
    }

    // ---- tables ---------------------------------------------------------------------------

    public List<ProgramHeader> programHeaders() {
        return programHeaders;
    }

    public List<ProgramHeader> loadSegments() {
        return programHeaders.stream().filter(ProgramHeader::isLoad).toList();
    }

    public List<SectionHeader> sections() {
        return sections;
    }

    public Optional<SectionHeader> section(String name) {
        return sections.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /** The allocated section whose address range contains {@code vaddr}. */
    public Optional<SectionHeader> sectionContaining(long vaddr) {
        return sections.stream().filter(s -> s.containsAddress(vaddr)).findFirst();
    }

    public List<ElfSymbol> symtab() {
        List<ElfSymbol> s = symtab;
        if (s == null) {
            symtab = s = readSymbols(SHT_SYMTAB, ElfSymbol.Table.SYMTAB);
        }
        return s;
    }

    public List<ElfSymbol> dynsym() {
        List<ElfSymbol> s = dynsym;
        if (s == null) {
            dynsym = s = readSymbols(SHT_DYNSYM, ElfSymbol.Table.DYNSYM);
        }
        return s;
    }

    /** .symtab followed by .dynsym. */
    public List<ElfSymbol> symbols() {
        List<ElfSymbol> all = new ArrayList<>(symtab().size() + dynsym().size());
        all.addAll(symtab());
        all.addAll(dynsym());
        return all;
    }

    public List<DynamicEntry> dynamicEntries() {
        return dynamic;
    }

    /** DT_NEEDED library names, in order. */
    public List<String> needed() {
        return dynamicStrings(DT_NEEDED);
    }

    public Optional<String> soname() {
        return dynamicStrings(DT_SONAME).stream().findFirst();
    }

    public Optional<String> runpath() {
        return dynamicStrings(DT_RUNPATH).stream().findFirst();
    }

    public Optional<String> rpath() {
        return dynamicStrings(DT_RPATH).stream().findFirst();
    }

    /** Whether DT_FLAGS_1 has DF_1_PIE (set by modern linkers for PIE executables). */
    public boolean pieFlag() {
        return dynamic.stream().anyMatch(d -> d.tag() == DT_FLAGS_1 && (d.value() & DF_1_PIE) != 0);
    }

    private List<String> dynamicStrings(long tag) {
        long strtab = -1;
        long strsz = 0;
        for (DynamicEntry d : dynamic) {
            if (d.tag() == DT_STRTAB) strtab = d.value();
            else if (d.tag() == DT_STRSZ) strsz = d.value();
        }
        if (strtab < 0) return List.of();
        long off = vaddrToOffset(strtab);
        if (off < 0 || strsz <= 0 || off + strsz > data.byteSize()) return List.of();
        List<String> out = new ArrayList<>();
        for (DynamicEntry d : dynamic) {
            if (d.tag() == tag) out.add(string(off, strsz, d.value()));
        }
        return out;
    }

    // ---- addresses ------------------------------------------------------------------------

    /** File offset of {@code vaddr} through the PT_LOAD mapping; -1 when no segment maps it from the file. */
    public long vaddrToOffset(long vaddr) {
        for (ProgramHeader p : programHeaders) {
            if (p.isLoad() && p.containsInFile(vaddr)) return p.offset() + (vaddr - p.vaddr());
        }
        return -1;
    }

    /** The PT_LOAD segment whose memory image contains {@code vaddr}. */
    public Optional<ProgramHeader> loadSegmentContaining(long vaddr) {
        return programHeaders.stream()
                .filter(p -> p.isLoad() && p.containsInMemory(vaddr))
                .findFirst();
    }

    /** The end (vaddr + memsz) of the highest PT_LOAD segment. */
    public long highestLoadEnd() {
        long end = 0;
        for (ProgramHeader p : programHeaders) {
            if (p.isLoad()) end = Math.max(end, p.vaddr() + p.memsz());
        }
        return end;
    }

    /**
     * A read-only native view of {@code len} bytes at {@code vaddr}; the whole range must come
     * from one segment's file part.
     */
    public MemorySegment segmentAt(long vaddr, long len) {
        for (ProgramHeader p : programHeaders) {
            if (p.isLoad() && p.containsInFile(vaddr)) {
                if (len > p.filesz() - (vaddr - p.vaddr())) break;
                long off = p.offset() + (vaddr - p.vaddr());
                if (off + len > data.byteSize()) break;
                return data.asSlice(off, len).asReadOnly();
            }
        }
        throw new IllegalArgumentException(path + ": [0x" + Long.toHexString(vaddr) + ", +" + len
                + ") is not mapped from the file by one PT_LOAD segment");
    }

    /** A copy of {@code len} bytes at {@code vaddr} (see {@link #segmentAt}). */
    public byte[] bytesAt(long vaddr, int len) {
        return segmentAt(vaddr, len).toArray(ValueLayout.JAVA_BYTE);
    }

    /** A copy of a section's file contents (empty for SHT_NOBITS). */
    public byte[] sectionBytes(SectionHeader s) {
        if (s.type() == SHT_NOBITS || s.size() == 0) return new byte[0];
        if (s.offset() + s.size() > data.byteSize() || s.size() > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException(path + ": section " + s.name() + " lies beyond the file");
        }
        return data.asSlice(s.offset(), s.size()).toArray(ValueLayout.JAVA_BYTE);
    }

    /**
     * The entries of every SHT_RELA section whose symbols come from .dynsym (.rela.dyn, .rela.plt),
     * with symbol names resolved; enough to name PLT and GOT slots.
     */
    public List<ElfRelocation> dynamicRelocations() throws ElfFormatException {
        List<ElfRelocation> out = new ArrayList<>();
        for (SectionHeader sh : sections) {
            if (sh.type() != SHT_RELA) continue;
            if (sh.link() <= 0
                    || sh.link() >= sections.size()
                    || sections.get(sh.link()).type() != SHT_DYNSYM) continue;
            requireRange(sh.offset(), sh.size(), sh.name() + " relocations");
            long entsize = sh.entsize() == 0 ? 24 : sh.entsize();
            if (entsize < 24)
                throw new ElfFormatException(path + ": " + sh.name() + " entry size " + entsize + " < 24");
            for (long o = sh.offset(); o + entsize <= sh.offset() + sh.size(); o += entsize) {
                long info = data.get(U64, o + 8);
                int sym = (int) (info >>> 32);
                String name =
                        sym > 0 && sym < dynsym().size() ? dynsym().get(sym).name() : "";
                out.add(new ElfRelocation(data.get(U64, o), (int) info, sym, data.get(U64, o + 16), name));
            }
        }
        return out;
    }

    /** A read-only native view of {@code len} bytes at file offset {@code offset}. */
    public MemorySegment fileSlice(long offset, long len) {
        return data.asSlice(offset, len).asReadOnly();
    }

    /** A little-endian read-only view of file bytes [offset, offset + len). */
    public ByteBuffer fileBytes(long offset, long len) throws ElfFormatException {
        requireRange(offset, len, "range");
        if (len > Integer.MAX_VALUE) {
            throw new ElfFormatException(path + ": range of " + len + " bytes at 0x" + Long.toHexString(offset)
                    + " is too large for one buffer");
        }
        return data.asSlice(offset, len).asByteBuffer().asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * The contents of a section as little-endian bytes: a view of the file, or the inflated bytes
     * of an SHF_COMPRESSED (zlib) section; empty for SHT_NOBITS.
     */
    public ByteBuffer sectionContents(SectionHeader s) throws ElfFormatException {
        if (s.type() == SHT_NOBITS || s.size() == 0) {
            return ByteBuffer.allocate(0).order(ByteOrder.LITTLE_ENDIAN);
        }
        ByteBuffer raw = fileBytes(s.offset(), s.size());
        return (s.flags() & SHF_COMPRESSED) == 0 ? raw : SectionInflater.inflate(path, s.name(), raw);
    }

    /** {@link #sectionContents(SectionHeader)} of the first section named {@code name}; empty when none or no bytes. */
    public Optional<ByteBuffer> sectionContents(String name) throws ElfFormatException {
        Optional<SectionHeader> s = section(name);
        if (s.isEmpty() || s.get().type() == SHT_NOBITS || s.get().size() == 0) {
            return Optional.empty();
        }
        return Optional.of(sectionContents(s.get()));
    }

    /** The 8 bytes at {@code vaddr}, read through the PT_LOAD mapping. */
    public long longAt(long vaddr) throws ElfFormatException {
        long off = vaddrToOffset(vaddr);
        if (off < 0 || off + 8 > data.byteSize()) {
            throw new ElfFormatException(path + ": address 0x" + Long.toHexString(vaddr) + " has no file bytes");
        }
        return data.get(U64, off);
    }

    /** The PT_LOAD segment whose file range holds {@code fileOffset}, executable ones first. */
    public Optional<ProgramHeader> loadSegmentAtOffset(long fileOffset) {
        ProgramHeader any = null;
        for (ProgramHeader p : programHeaders) {
            if (p.isLoad() && fileOffset >= p.offset() && fileOffset < p.offset() + Math.max(p.filesz(), 1)) {
                if (p.executable()) {
                    return Optional.of(p);
                }
                if (any == null) {
                    any = p;
                }
            }
        }
        return Optional.ofNullable(any);
    }

    // ---- notes ----------------------------------------------------------------------------

    /** The notes of every PT_NOTE and PT_GNU_PROPERTY segment, in file order (a note both hold comes twice). */
    public List<ElfNote> segmentNotes() {
        List<ElfNote> out = new ArrayList<>();
        for (ProgramHeader p : programHeaders) {
            if (p.type() == PT_NOTE || p.type() == PT_GNU_PROPERTY) {
                ElfNote.walk(data, p.offset(), p.filesz(), p.align() == 8 ? 8 : 4, out);
            }
        }
        return out;
    }

    /** The notes of every SHT_NOTE section. */
    public List<ElfNote> sectionNotes() {
        List<ElfNote> out = new ArrayList<>();
        for (SectionHeader s : sections) {
            if (s.type() == SHT_NOTE) {
                ElfNote.walk(data, s.offset(), s.size(), s.addralign() == 8 ? 8 : 4, out);
            }
        }
        return out;
    }

    /** The NT_GNU_BUILD_ID note (from the note sections, else the note segments); empty when none. */
    public byte[] buildId() {
        for (List<ElfNote> notes : List.of(sectionNotes(), segmentNotes())) {
            for (ElfNote n : notes) {
                if (n.type() == NT_GNU_BUILD_ID && n.name().equals("GNU")) {
                    return n.desc();
                }
            }
        }
        return new byte[0];
    }

    /** The {@code .gnu_debuglink} section: the separate debug file's name and its CRC-32. */
    public Optional<DebugLink> debugLink() throws ElfFormatException {
        Optional<ByteBuffer> b = sectionContents(".gnu_debuglink");
        return b.isEmpty() ? Optional.empty() : DebugLink.parse(b.get());
    }

    /**
     * The FDEs of {@code .eh_frame} and {@code .debug_frame}, by start address: the function
     * bounds of a file without symbols (each FDE is a function), read once.
     */
    public List<FrameDescription> frameDescriptions() {
        List<FrameDescription> f = frameDescriptions;
        if (f == null) {
            frameDescriptions = f = FrameDescriptions.of(this);
        }
        return f;
    }

    @Override
    public String toString() {
        return "ElfFile[" + path + ", type " + type + ", " + phnum + " phdrs, " + shnum + " sections]";
    }
}
