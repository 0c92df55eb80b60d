package org.rocprofsys.instrument.rewrite;

import static org.rocprofsys.instrument.rewrite.ElfHeaders.Phdr;
import static org.rocprofsys.instrument.rewrite.ElfHeaders.Shdr;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rocprofsys.config.atomicfile.AtomicFile;
import org.rocprofsys.config.atomicfile.FileWriteException;
import org.rocprofsys.elf.ElfConstants;
import org.rocprofsys.elf.ElfFile;
import org.rocprofsys.elf.ElfNote;
import org.rocprofsys.instrument.area.Area;
import org.rocprofsys.instrument.area.AreaBuilder;
import org.rocprofsys.instrument.area.AreaFormat;
import org.rocprofsys.instrument.plan.InstrumentPlan;

/**
 * Rewrite mode (docs/instrumentation.md, "Rewrite mode: the ELF file"): writes a copy of an
 * x86-64 executable (PIE or not) or shared library with an instrumentation area in two new
 * loadable segments, a new program header table and the entry jumps of every planned function.
 *
 * <p>File layout: the loaded part of the input (up to the end of its last PT_LOAD's file bytes)
 * stays where it is; at the next page-aligned offset {@code O} (vaddr {@code V}, above every
 * segment, {@code V ≡ O mod page}) come the new parts; what followed the loaded part (symbol
 * tables, debug sections, the old section header table) moves behind them, by a page multiple:
 * <pre>
 *   O                 program header table (old entries, PT_PHDR moved, + 2 PT_LOAD + 1 PT_NOTE)
 *   O + 8-aligned     the note: "RocProfSys", type 1, desc u64 area vaddr
 *   O + H (page)      the area's read+execute part           } PT_LOAD R+X from O
 *   O + H + rx_size   the area's read+write data page         PT_LOAD R+W
 *   then              the input's non-loaded tail, shifted
 *   then              a copy of .shstrtab with the new names, copies of .strtab and .symtab
 *                     with symbols for the stub and the trampolines, and the section header table
 *                     (old sections + .note.rocprofsys, .rocprofsys, .rocprofsys.text,
 *                     .rocprofsys.data); e_shoff points to it
 * </pre>
 * For anything that can be a program, {@code V - O} equals the first PT_LOAD's
 * {@code p_vaddr - p_offset}, so that kernels computing {@code AT_PHDR} as
 * {@code load_addr + e_phoff} find the new table (a large .bss makes a hole in the file up to
 * {@code O}); a shared library that cannot be a program gets {@code V} at the page above its last
 * segment. Either way the area lies right above the module's highest segment.
 * The input is never modified; the output is written to a temporary file next to it and renamed
 * when complete, with the input's permissions.
 */
public final class ElfRewriter {
    private ElfRewriter() {}

    static final int PAGE = 4096;
    static final String NOTE_NAME = "RocProfSys";
    static final int NOTE_TYPE = 1;
    /** namesz, descsz, type, "RocProfSys\0" padded to 12, u64 desc. */
    static final int NOTE_SIZE = 12 + 12 + 8;

    /**
     * What was written.
     *
     * @param output         the rewritten file
     * @param areaVaddr      the area's vaddr (relative to the load bias)
     * @param areaOffset     its file offset
     * @param phdrOffset     the new program header table's file offset ({@code e_phoff})
     * @param functions      entries patched
     */
    public record Result(Path output, long areaVaddr, long areaOffset, long phdrOffset, int functions) {}

    /**
     * Builds the area of {@code plan} (with its mode and the {@code --env} defaults) and rewrites
     * {@code plan.module()} into {@code output}; a plan the area cannot hold (overlapping entries,
     * bad labels or env entries) is a {@link RewriteException} too.
     */
    public static Result rewrite(InstrumentPlan plan, Map<String, String> envDefaults, Path output) throws IOException {
        Area area;
        try {
            area = AreaBuilder.build(plan, envDefaults);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new RewriteException(plan.module() + ": " + e.getMessage(), e);
        }
        return rewrite(plan.module(), output, area);
    }

    /**
     * Writes {@code output}: {@code input} with {@code area} placed, its relocations applied and
     * the entries of its functions patched.
     *
     * @throws RewriteException for an input that is not an x86-64 ELF64 executable or shared
     *         library, an unwritable output, a function entry that is not in an executable segment
     *         or out of reach; no output file is left behind then
     */
    public static Result rewrite(Path input, Path output, Area area) throws IOException {
        if (!Files.isRegularFile(input)) {
            throw new RewriteException(input + ": " + (Files.exists(input) ? "not a regular file" : "no such file"));
        }
        if (!Files.isReadable(input)) {
            throw new RewriteException(input + ": not readable");
        }
        Path out = output.toAbsolutePath();
        if (Files.exists(out) && Files.isSameFile(input, out)) {
            throw new RewriteException(output + ": the output would replace the input");
        }
        if (Files.isDirectory(out)) {
            throw new RewriteException(output + ": is a directory");
        }
        try {
            return AtomicFile.write(output, tmp -> {
                Result r;
                try (FileChannel in = FileChannel.open(input, StandardOpenOption.READ);
                        FileChannel ch = FileChannel.open(tmp, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    ElfHeaders elf = ElfHeaders.read(input, in);
                    r = place(input, elf, in, ch, area, out);
                }
                copyPermissions(input, tmp);
                return r;
            });
        } catch (FileWriteException e) {
            throw new RewriteException(e.getMessage(), e);
        } catch (RewriteException e) {
            throw e;
        } catch (IOException e) {
            throw new RewriteException("cannot rewrite " + input + " into " + output + ": " + AtomicFile.reason(e), e);
        }
    }

    private static void copyPermissions(Path from, Path to) throws IOException {
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(from);
            Files.setPosixFilePermissions(to, perms);
        } catch (UnsupportedOperationException e) {
            to.toFile().setExecutable(Files.isExecutable(from));
        }
    }

    static long alignUp(long v, long a) {
        return Math.ceilDiv(v, a) * a;
    }

    /**
     * A shared library that cannot be a program: ET_DYN without PT_INTERP and without DF_1_PIE
     * (static PIEs have the flag but no interpreter).
     */
    static boolean isLibrary(ElfFile elf) {
        return elf.type() == ElfConstants.ET_DYN && !elf.hasInterpreter() && !elf.pieFlag();
    }

    /**
     * File offsets of the x86 feature words (GNU_PROPERTY_X86_FEATURE_1_AND) that claim IBT or
     * SHSTK. The rewritten module cannot keep either promise: patched entries start with a
     * {@code jmp}, not {@code endbr64}, and the agent rewrites return addresses; so the bits are
     * cleared, and the loader never turns those features on for the process.
     */
    static List<Long> cetFeatureWords(ElfFile elf) {
        List<Long> words = new ArrayList<>();
        for (ElfNote n : elf.segmentNotes()) {
            if (n.type() != ElfConstants.NT_GNU_PROPERTY_TYPE_0 || !n.name().equals("GNU")) {
                continue;
            }
            ByteBuffer b = n.descData();
            int q = 0;
            while (q + 8 <= b.limit()) {
                int prType = b.getInt(q);
                int prSize = b.getInt(q + 4);
                if (prSize < 0) {
                    break;
                }
                if (prType == ElfConstants.GNU_PROPERTY_X86_FEATURE_1_AND
                        && prSize == 4
                        && q + 12 <= b.limit()
                        && (b.getInt(q + 8) & ElfConstants.GNU_PROPERTY_X86_FEATURE_1_CET) != 0
                        && !words.contains(n.descOffset() + q + 8)) {
                    words.add(n.descOffset() + q + 8);
                }
                q = (int) alignUp(q + 8L + prSize, 8);
            }
        }
        return words;
    }

    /**
     * Refuses entries whose patched bytes a dynamic relocation writes (text relocations: the
     * loader would write into the jump, and the relocated copy in the area would miss the value).
     * Reads every allocated SHT_RELA / SHT_REL section.
     */
    static void checkDynamicRelocations(Path input, ElfHeaders elf, FileChannel ch, List<Area.Function> sorted)
            throws IOException {
        if (sorted.isEmpty()) {
            return;
        }
        long[] starts = new long[sorted.size()];
        for (int i = 0; i < starts.length; i++) {
            starts[i] = sorted.get(i).funcVaddr();
        }
        for (Shdr s : elf.shdrs) {
            boolean rela = s.type == 4; // SHT_RELA
            if ((!rela && s.type != 9 /* SHT_REL */)
                    || (s.flags & 2) == 0
                    || s.size <= 0
                    || s.offset + s.size > elf.fileSize) {
                continue;
            }
            int entsize = rela ? 24 : 16;
            long count = s.size / entsize;
            final int chunk = 4096;
            for (long first = 0; first < count; first += chunk) {
                int n = (int) Math.min(chunk, count - first);
                ByteBuffer b = ElfHeaders.read(ch, s.offset + first * entsize, n * entsize);
                for (int k = 0; k < n; k++) {
                    long r = b.getLong(k * entsize);
                    // the last patch starting at or before r + 7 is the only one r..r+8 can touch
                    int i = java.util.Arrays.binarySearch(starts, r + 7);
                    i = i >= 0 ? i : -i - 2;
                    if (i >= 0) {
                        Area.Function f = sorted.get(i);
                        if (r < f.funcVaddr() + f.patchLength()) {
                            throw new RewriteException(String.format(
                                    "%s: a dynamic relocation writes 0x%x, inside the patched entry of %s (text relocation)",
                                    input, r, f.label()));
                        }
                    }
                }
            }
        }
    }

    /** Whether a PT_NOTE holds a "RocProfSys" note: the file was rewritten already. */
    static boolean hasAreaNote(ElfFile elf) {
        return elf.segmentNotes().stream()
                .anyMatch(n -> n.type() == NOTE_TYPE && n.name().equals(NOTE_NAME));
    }

    /** New copies of .strtab and .symtab: the old bytes (copied from the input) plus the added ones. */
    record Symbols(
            long oldStrOff,
            long oldStrSize,
            long strOff,
            ByteBuffer strAdded,
            long oldSymOff,
            long oldSymSize,
            long symOff,
            ByteBuffer symAdded,
            long end) {}

    /**
     * Function symbols for the stub and each trampoline ({@code rocprofsys.entry_stub},
     * {@code rocprofsys.tramp.<label>}; STB_GLOBAL, STV_HIDDEN, appended so that the locals-first
     * rule of .symtab holds), so that debuggers and profilers name samples taken there. Copies of
     * .strtab and .symtab go at {@code at}; their section headers in {@code shdrs} are updated.
     * Null (nothing added) for a file without .symtab, with SHT_SYMTAB_SHNDX, or with too many sections.
     */
    static Symbols trampolineSymbols(
            ElfHeaders elf, List<Shdr> shdrs, int textIndex, Area area, long areaVaddr, long at) {
        int symIndex = -1;
        for (int i = 0; i < elf.shdrs.size(); i++) {
            Shdr x = elf.shdrs.get(i);
            if (x.type == 18 /* SHT_SYMTAB_SHNDX */) {
                return null;
            }
            if (x.type == 2 /* SHT_SYMTAB */ && symIndex < 0) {
                symIndex = i;
            }
        }
        if (symIndex < 0 || textIndex >= ElfConstants.SHN_LORESERVE) {
            return null;
        }
        Shdr sym = elf.shdrs.get(symIndex);
        if (sym.entsize != 24
                || sym.link <= 0
                || sym.link >= elf.shdrs.size()
                || sym.offset + sym.size > elf.fileSize) {
            return null;
        }
        Shdr str = elf.shdrs.get(sym.link);
        if (str.type != 3 /* SHT_STRTAB */ || sym.link == elf.shstrndx || str.offset + str.size > elf.fileSize) {
            return null;
        }
        List<Area.Function> byTramp = new ArrayList<>(area.functions());
        byTramp.sort(Comparator.comparingInt(Area.Function::trampOff));
        java.io.ByteArrayOutputStream names = new java.io.ByteArrayOutputStream();
        ByteBuffer syms = ElfHeaders.le((byTramp.size() + 1) * 24);
        java.util.function.BiConsumer<String, long[]> add = (name, valueSize) -> {
            long nameOff = str.size + names.size();
            names.writeBytes(name.getBytes(StandardCharsets.UTF_8));
            names.write(0);
            syms.putInt((int) nameOff)
                    .put((byte) 0x12 /* GLOBAL FUNC */)
                    .put((byte) 2 /* HIDDEN */)
                    .putShort((short) textIndex)
                    .putLong(valueSize[0])
                    .putLong(valueSize[1]);
        };
        add.accept("rocprofsys.entry_stub", new long[] {areaVaddr + area.codeOff(), AreaFormat.STUB_SIZE});
        for (int i = 0; i < byTramp.size(); i++) {
            Area.Function f = byTramp.get(i);
            int next = i + 1 < byTramp.size() ? byTramp.get(i + 1).trampOff() : area.codeEnd();
            add.accept("rocprofsys.tramp." + f.label(), new long[] {areaVaddr + f.trampOff(), next - f.trampOff()});
        }
        if (str.size + names.size() > 0xFFFF_FFFFL) {
            return null;
        }
        long strOff = at;
        long symOff = alignUp(strOff + str.size + names.size(), 8);
        long end = alignUp(symOff + sym.size + syms.capacity(), 8);
        Shdr newStr = shdrs.get(sym.link);
        newStr.offset = strOff;
        newStr.size = str.size + names.size();
        Shdr newSym = shdrs.get(symIndex);
        newSym.offset = symOff;
        newSym.size = sym.size + syms.capacity();
        return new Symbols(
                str.offset,
                str.size,
                strOff,
                ByteBuffer.wrap(names.toByteArray()),
                sym.offset,
                sym.size,
                symOff,
                syms.flip(),
                end);
    }

    /** Lays out and writes the new parts into {@code ch}, a copy of the input. */
    private static Result place(Path input, ElfHeaders elf, FileChannel in, FileChannel ch, Area area, Path out)
            throws IOException {
        List<Phdr> loads =
                elf.phdrs.stream().filter(p -> p.type == ElfConstants.PT_LOAD).toList();
        if (loads.isEmpty()) {
            throw new RewriteException(input + ": no PT_LOAD segment");
        }
        if (hasAreaNote(elf.view)) {
            throw new RewriteException(
                    input + ": already instrumented (it has a RocProfSys note); rewrite the original");
        }
        Phdr first = loads.stream().min(Comparator.comparingLong(p -> p.vaddr)).orElseThrow();
        long maxEnd = 0;
        long loadedEnd = 0; // end of the bytes the loadable segments take from the file
        for (Phdr p : loads) {
            maxEnd = Math.max(maxEnd, p.vaddr + p.memsz);
            loadedEnd = Math.max(loadedEnd, p.offset + p.filesz);
        }
        if (loadedEnd > elf.fileSize) {
            throw new RewriteException(input + ": a PT_LOAD segment goes beyond the end of the file");
        }
        long delta = first.vaddr - first.offset;
        long o;
        long v;
        if (isLibrary(elf.view)) { // never exec'd: no AT_PHDR to care for
            o = alignUp(loadedEnd, PAGE);
            v = alignUp(maxEnd, PAGE);
        } else if (Math.floorMod(delta, PAGE) == 0) {
            o = Math.max(alignUp(loadedEnd, PAGE), alignUp(maxEnd - delta, PAGE));
            v = o + delta;
        } else { // no consistent choice: only kernels that look for the PT_LOAD holding e_phoff work
            o = alignUp(loadedEnd, PAGE);
            v = alignUp(maxEnd, PAGE);
        }

        int newPhnum = elf.phdrs.size() + 3;
        if (newPhnum >= 0xffff) {
            throw new RewriteException(input + ": too many program headers");
        }
        long phdrSize = (long) newPhnum * ElfConstants.PHDR_SIZE;
        long noteRel = alignUp(phdrSize, 8);
        long headRegion = alignUp(noteRel + NOTE_SIZE, PAGE);
        long areaOff = o + headRegion;
        long areaVaddr = v + headRegion;
        long dataOff = areaOff + area.rxSize();
        long dataVaddr = areaVaddr + area.rxSize();

        // what follows the loaded bytes in the file (non-allocated sections, the section header
        // table) moves behind the new parts, by a multiple of the page and of every alignment
        long tailStart = loadedEnd;
        long newEnd = dataOff + PAGE;
        long tailAlign = PAGE;
        for (Shdr x : elf.shdrs) {
            if (x.offset >= tailStart && x.addralign > tailAlign && Long.bitCount(x.addralign) == 1) {
                tailAlign = x.addralign;
            }
        }
        long shift = alignUp(Math.max(0, newEnd - tailStart), tailAlign);
        long tailEnd = elf.fileSize + shift;

        // the area, applied for its place
        byte[] bytes;
        try {
            bytes = area.applied(areaVaddr);
        } catch (IllegalArgumentException e) {
            throw new RewriteException(input + ": " + e.getMessage(), e);
        }

        // entry patches, checked before anything is written
        List<Area.Function> funcs = new ArrayList<>(area.functions());
        funcs.sort(Comparator.comparingLong(Area.Function::funcVaddr));
        long lastEnd = Long.MIN_VALUE;
        String lastLabel = null;
        long[] patchOff = new long[funcs.size()];
        for (int i = 0; i < funcs.size(); i++) {
            Area.Function f = funcs.get(i);
            long start = f.funcVaddr();
            long end = start + f.patchLength();
            if (start < lastEnd) {
                throw new RewriteException(String.format(
                        "%s: patch of %s at 0x%x overlaps the patch of %s", input, f.label(), start, lastLabel));
            }
            lastEnd = end;
            lastLabel = f.label();
            Phdr seg = null;
            for (Phdr p : loads) {
                if (start >= p.vaddr && end <= p.vaddr + p.filesz) {
                    seg = p;
                    break;
                }
            }
            if (seg == null || (seg.flags & ElfConstants.PF_X) == 0) {
                throw new RewriteException(String.format(
                        "%s: entry of %s at 0x%x is not in an executable segment of the file",
                        input, f.label(), start));
            }
            patchOff[i] = start - seg.vaddr + seg.offset;
            long rel = areaVaddr + f.trampOff() - (start + 5);
            if (rel != (int) rel) {
                throw new RewriteException(String.format("%s: trampoline of %s out of jmp reach", input, f.label()));
            }
        }

        checkDynamicRelocations(input, elf, in, funcs);

        // new program header table
        List<Phdr> phdrs = new ArrayList<>();
        int lastLoad = -1;
        for (Phdr p : elf.phdrs) {
            Phdr c = new Phdr(p.type, p.flags, p.offset, p.vaddr, p.paddr, p.filesz, p.memsz, p.align);
            if (c.type == ElfConstants.PT_PHDR) {
                c.offset = o;
                c.vaddr = v;
                c.paddr = v;
                c.filesz = phdrSize;
                c.memsz = phdrSize;
            }
            if (c.type == ElfConstants.PT_LOAD) {
                lastLoad = phdrs.size();
            } else if (c.type != ElfConstants.PT_PHDR && c.filesz > 0 && c.offset >= tailStart) {
                c.offset += shift; // a non-loaded segment in the tail (unusual)
            }
            phdrs.add(c);
        }
        Phdr rx = new Phdr(
                ElfConstants.PT_LOAD,
                ElfConstants.PF_R | ElfConstants.PF_X,
                o,
                v,
                v,
                headRegion + area.rxSize(),
                headRegion + area.rxSize(),
                PAGE);
        Phdr rw = new Phdr(
                ElfConstants.PT_LOAD,
                ElfConstants.PF_R | ElfConstants.PF_W,
                dataOff,
                dataVaddr,
                dataVaddr,
                PAGE,
                PAGE,
                PAGE);
        phdrs.add(lastLoad + 1, rx);
        phdrs.add(lastLoad + 2, rw);
        phdrs.add(new Phdr(
                ElfConstants.PT_NOTE,
                ElfConstants.PF_R,
                o + noteRel,
                v + noteRel,
                v + noteRel,
                NOTE_SIZE,
                NOTE_SIZE,
                4));

        ByteBuffer head = ElfHeaders.le((int) headRegion);
        for (Phdr p : phdrs) {
            p.write(head);
        }
        head.position((int) noteRel);
        head.putInt(NOTE_NAME.length() + 1).putInt(8).putInt(NOTE_TYPE);
        head.put(NOTE_NAME.getBytes(StandardCharsets.US_ASCII)).put((byte) 0).put((byte) 0);
        head.putLong(areaVaddr);
        head.clear();

        // sections: the tail's sections shifted; a new .shstrtab copy with the added names and
        // the new table at the end
        long end = tailEnd;
        long newShoff = elf.shoff;
        int newShnum = elf.shdrs.size();
        ByteBuffer shstrtab = null;
        ByteBuffer shtab = null;
        long shstrtabOff = 0;
        Symbols symbols = null;
        List<Shdr> shdrs = new ArrayList<>();
        for (Shdr x : elf.shdrs) {
            Shdr c =
                    new Shdr(x.name, x.type, x.flags, x.addr, x.offset, x.size, x.link, x.info, x.addralign, x.entsize);
            if (c.offset >= tailStart && (c.flags & 2 /* SHF_ALLOC */) == 0 && c.type != 8 /* SHT_NOBITS */) {
                c.offset += shift;
            }
            shdrs.add(c);
        }
        if (!elf.shdrs.isEmpty() && elf.shstrndx != ElfConstants.SHN_UNDEF) {
            Shdr strSec = elf.shdrs.get(elf.shstrndx);
            if (strSec.size > Integer.MAX_VALUE - 64 || strSec.offset + strSec.size > elf.fileSize) {
                throw new RewriteException(input + ": bad section name table");
            }
            byte[] names = ElfHeaders.read(in, strSec.offset, (int) strSec.size).array();
            String[] added = {".note.rocprofsys", ".rocprofsys", ".rocprofsys.text", ".rocprofsys.data"};
            ByteBuffer s = ElfHeaders.le(names.length + 64);
            s.put(names);
            int[] nameIdx = new int[added.length];
            for (int i = 0; i < added.length; i++) {
                nameIdx[i] = s.position();
                s.put(added[i].getBytes(StandardCharsets.US_ASCII)).put((byte) 0);
            }
            s.flip();
            shstrtab = s;
            shstrtabOff = end;
            newShoff = alignUp(end + s.remaining(), 8);
            Shdr ns = shdrs.get(elf.shstrndx);
            ns.offset = shstrtabOff;
            ns.size = s.remaining();
            shdrs.add(
                    new Shdr(nameIdx[0], 7 /* SHT_NOTE */, 2 /* A */, v + noteRel, o + noteRel, NOTE_SIZE, 0, 0, 4, 0));
            shdrs.add(new Shdr(
                    nameIdx[1], 1 /* SHT_PROGBITS */, 2 /* A */, areaVaddr, areaOff, area.codeOff(), 0, 0, 8, 0));
            shdrs.add(new Shdr(
                    nameIdx[2],
                    1,
                    6 /* AX */,
                    areaVaddr + area.codeOff(),
                    areaOff + area.codeOff(),
                    area.codeEnd() - area.codeOff(),
                    0,
                    0,
                    16,
                    0));
            shdrs.add(new Shdr(nameIdx[3], 1, 3 /* WA */, dataVaddr, dataOff, PAGE, 0, 0, 8, 0));
            symbols = trampolineSymbols(elf, shdrs, elf.shdrs.size() + 2, area, areaVaddr, newShoff);
            if (symbols != null) {
                newShoff = symbols.end();
            }
        } else if (!elf.shdrs.isEmpty()) {
            newShoff = alignUp(end, 8);
        }
        if (!shdrs.isEmpty()) {
            newShnum = shdrs.size();
            if (newShnum >= ElfConstants.SHN_LORESERVE) {
                shdrs.getFirst().size = newShnum;
            }
            shtab = ElfHeaders.le(newShnum * ElfConstants.SHDR_SIZE);
            for (Shdr x : shdrs) {
                x.write(shtab);
            }
            shtab.flip();
        }

        // ELF header
        ByteBuffer eh = ByteBuffer.wrap(elf.ehdr.clone()).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        eh.putLong(32, o);
        eh.putShort(56, (short) phdrs.size());
        if (shtab != null) {
            eh.putLong(40, newShoff);
            eh.putShort(60, (short) (newShnum >= ElfConstants.SHN_LORESERVE ? 0 : newShnum));
        }

        // write: the loaded part, the tail at its new place (a gap up to O stays a hole), the new
        // parts, then the patches and the header
        copy(in, 0, ch, 0, tailStart);
        copy(in, tailStart, ch, tailStart + shift, elf.fileSize - tailStart);
        writeFully(ch, head, o);
        writeFully(ch, ByteBuffer.wrap(bytes), areaOff);
        if (shstrtab != null) {
            writeFully(ch, shstrtab, shstrtabOff);
        }
        if (symbols != null) {
            copy(in, symbols.oldStrOff(), ch, symbols.strOff(), symbols.oldStrSize());
            writeFully(ch, symbols.strAdded(), symbols.strOff() + symbols.oldStrSize());
            copy(in, symbols.oldSymOff(), ch, symbols.symOff(), symbols.oldSymSize());
            writeFully(ch, symbols.symAdded(), symbols.symOff() + symbols.oldSymSize());
        }
        if (shtab != null) {
            writeFully(ch, shtab, newShoff);
        }
        for (int i = 0; i < funcs.size(); i++) {
            Area.Function f = funcs.get(i);
            ByteBuffer jmp = ElfHeaders.le(f.patchLength());
            jmp.put((byte) 0xE9).putInt((int) (areaVaddr + f.trampOff() - (f.funcVaddr() + 5)));
            while (jmp.hasRemaining()) {
                jmp.put((byte) 0xCC);
            }
            writeFully(ch, jmp.flip(), patchOff[i]);
        }
        for (long w : cetFeatureWords(elf.view)) {
            ByteBuffer word = ElfHeaders.read(in, w, 4);
            word.putInt(0, word.getInt(0) & ~ElfConstants.GNU_PROPERTY_X86_FEATURE_1_CET);
            writeFully(ch, word, w);
        }
        writeFully(ch, eh, 0);
        return new Result(out, areaVaddr, areaOff, o, funcs.size());
    }

    private static void copy(FileChannel from, long pos, FileChannel to, long toPos, long count) throws IOException {
        long done = 0;
        while (done < count) {
            long n = from.transferTo(pos + done, count - done, to.position(toPos + done));
            if (n <= 0) {
                throw new IOException("short read at " + (pos + done));
            }
            done += n;
        }
    }

    private static void writeFully(FileChannel ch, ByteBuffer b, long pos) throws IOException {
        long p = pos;
        while (b.hasRemaining()) {
            p += ch.write(b, p);
        }
    }
}
