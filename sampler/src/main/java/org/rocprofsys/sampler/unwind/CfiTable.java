package org.rocprofsys.sampler.unwind;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.rocprofsys.elf.ElfConstants;
import org.rocprofsys.elf.ElfFile;
import org.rocprofsys.elf.FrameDescription;
import org.rocprofsys.elf.FrameDescriptions;
import org.rocprofsys.elf.ProgramHeader;
import org.rocprofsys.sampler.AddressSearch;

/**
 * The call frame information of one ELF file: FDE lookup by link-time pc through .eh_frame
 * (with .eh_frame_hdr's binary-search table when present, else a sorted index built by one scan)
 * and then .debug_frame. Parsed CIEs and FDEs are cached. Thread-safe.
 */
public final class CfiTable {
    /** One CFI section (.eh_frame or .debug_frame) and its entries. */
    private static final class Frames {
        final ByteBuffer data;
        final long addr;
        final boolean eh;
        final ElfFile elf;
        final Map<Long, Cie> cies = new ConcurrentHashMap<>();
        final Map<Long, Fde> fdes = new ConcurrentHashMap<>();
        // The sorted index (when built): pc begin, pc end, entry offset.
        long[] begins;
        long[] ends;
        long[] offsets;

        Frames(ByteBuffer data, long addr, boolean eh, ElfFile elf) {
            this.data = data;
            this.addr = addr;
            this.eh = eh;
            this.elf = elf;
        }
    }

    /**
     * .eh_frame_hdr's binary-search table: {@code count} entries of {@code enc}-encoded (initial pc,
     * FDE address) pairs from {@code start} in {@code hdr}, which lies at {@code addr}.
     */
    private record SearchTable(ByteBuffer hdr, long addr, int enc, int start, long count) {
        static final SearchTable NONE = new SearchTable(null, 0, DwarfCursor.PE_OMIT, 0, 0);

        /** Bytes per entry: two pointers of the encoding's size; 0 for an encoding it cannot search. */
        int entrySize() {
            int fmt = enc & 0x0f;
            return fmt == DwarfCursor.PE_UDATA4 || fmt == DwarfCursor.PE_SDATA4
                    ? 8
                    : fmt == DwarfCursor.PE_UDATA8 || fmt == DwarfCursor.PE_SDATA8
                            ? 16
                            : fmt == DwarfCursor.PE_UDATA2 || fmt == DwarfCursor.PE_SDATA2 ? 4 : 0;
        }
    }

    private final String name;
    private final Frames ehFrame;
    private final Frames debugFrame;
    private final SearchTable table;

    private CfiTable(String name, Frames ehFrame, Frames debugFrame, SearchTable table) {
        this.name = name;
        this.ehFrame = ehFrame;
        this.debugFrame = debugFrame;
        this.table = table;
    }

    /** The CFI of {@code elf}: .eh_frame (+ .eh_frame_hdr, or PT_GNU_EH_FRAME without sections) and .debug_frame. */
    public static CfiTable load(ElfFile elf) throws IOException {
        return load(elf, null);
    }

    /**
     * The CFI of {@code elf}, with the {@code .debug_frame} of its separate debug file
     * ({@code debug}, may be null) where the file itself has none: code built without unwind
     * tables and then stripped keeps its CFI only there.
     */
    public static CfiTable load(ElfFile elf, ElfFile debug) throws IOException {
        ByteBuffer eh = contents(elf, ".eh_frame");
        long ehAddr = eh == null ? 0 : elf.section(".eh_frame").orElseThrow().addr();
        ByteBuffer hdr = contents(elf, ".eh_frame_hdr");
        long hdrAddr =
                hdr == null ? 0 : elf.section(".eh_frame_hdr").orElseThrow().addr();
        if (hdr == null) {
            for (ProgramHeader s : elf.programHeaders()) {
                if (s.type() == ElfConstants.PT_GNU_EH_FRAME && s.filesz() > 0) {
                    hdr = elf.fileBytes(s.offset(), s.filesz());
                    hdrAddr = s.vaddr();
                }
            }
        }
        int tableEnc = DwarfCursor.PE_OMIT;
        int tableStart = 0;
        long count = 0;
        if (hdr != null) {
            try {
                DwarfCursor c = new DwarfCursor(hdr, hdrAddr, 0);
                int version = c.u8();
                int ehPtrEnc = c.u8();
                int countEnc = c.u8();
                int tEnc = c.u8();
                if (version == 1) {
                    c.dataRelBase = hdrAddr;
                    long ehPtr = c.pointer(ehPtrEnc);
                    long n = countEnc == DwarfCursor.PE_OMIT ? 0 : c.pointer(countEnc);
                    if (eh == null && ehPtr != 0) { // no section headers: .eh_frame runs to its segment's end
                        long off = elf.vaddrToOffset(ehPtr);
                        for (ProgramHeader s : elf.loadSegments()) {
                            if (off >= 0 && off >= s.offset() && off < s.offset() + s.filesz()) {
                                eh = elf.fileBytes(off, s.offset() + s.filesz() - off);
                                ehAddr = ehPtr;
                            }
                        }
                    }
                    if (tEnc != DwarfCursor.PE_OMIT && n > 0) {
                        tableEnc = tEnc;
                        tableStart = c.pos();
                        count = n;
                    }
                }
            } catch (CannotUnwindException e) {
                hdr = null;
            }
        }
        ElfFile dbgElf = elf;
        ByteBuffer dbg = contents(elf, ".debug_frame");
        if (dbg == null && debug != null) {
            dbg = contents(debug, ".debug_frame");
            dbgElf = debug;
        }
        Frames ehFrames = eh == null ? null : new Frames(eh, ehAddr, true, elf);
        Frames dbgFrames = dbg == null
                ? null
                : new Frames(dbg, dbgElf.section(".debug_frame").orElseThrow().addr(), false, elf);
        CfiTable t = new CfiTable(
                elf.path().toString(), ehFrames, dbgFrames, new SearchTable(hdr, hdrAddr, tableEnc, tableStart, count));
        if (ehFrames != null && (t.table.entrySize() == 0 || count == 0)) {
            buildIndex(ehFrames);
        }
        if (dbgFrames != null) {
            buildIndex(dbgFrames);
        }
        return t;
    }

    /** A section's bytes (inflated where compressed), or null when absent or without bytes. */
    private static ByteBuffer contents(ElfFile elf, String name) throws IOException {
        return elf.sectionContents(name).orElse(null);
    }

    /** Parses CFI from raw section bytes (tests): an .eh_frame when {@code eh}, else a .debug_frame. */
    public static CfiTable of(byte[] section, long sectionAddr, boolean eh) {
        Frames f = new Frames(ByteBuffer.wrap(section), sectionAddr, eh, null);
        buildIndex(f);
        return eh
                ? new CfiTable("<memory>", f, null, SearchTable.NONE)
                : new CfiTable("<memory>", null, f, SearchTable.NONE);
    }

    public boolean usesHeaderTable() {
        return table.entrySize() != 0 && table.count() > 0 && ehFrame != null;
    }

    public boolean hasEhFrame() {
        return ehFrame != null;
    }

    public boolean hasDebugFrame() {
        return debugFrame != null;
    }

    /** The FDE covering link-time address {@code pc}, or null when no CFI covers it. */
    public Fde find(long pc) throws CannotUnwindException {
        if (ehFrame != null) {
            Fde f = usesHeaderTable() ? findInHeader(pc) : findInIndex(ehFrame, pc);
            if (f != null) {
                return f;
            }
        }
        return debugFrame == null ? null : findInIndex(debugFrame, pc);
    }

    /**
     * The rules at link-time address {@code pc}, or null when no FDE covers it. Rows are cached per
     * pc: samples keep meeting the same return addresses, and running the FDE's CFA program again
     * for each is most of an unwind's cost. The cache is dropped when it grows past its bound.
     */
    public UnwindRow rowAt(long pc) throws CannotUnwindException {
        Object cached = rows.get(pc);
        if (cached != null) {
            return cached == NO_ROW ? null : (UnwindRow) cached;
        }
        Fde f = find(pc);
        UnwindRow row = f == null ? null : CfaInterpreter.rowAt(f, pc);
        if (rows.size() >= MAX_CACHED_ROWS) {
            rows.clear();
        }
        rows.put(pc, row == null ? NO_ROW : row);
        return row;
    }

    private static final Object NO_ROW = new Object();
    private static final int MAX_CACHED_ROWS = 1 << 16;
    private final java.util.concurrent.ConcurrentHashMap<Long, Object> rows =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** Every FDE (tests and diagnostics). */
    public List<Fde> allFdes() throws CannotUnwindException {
        List<Fde> out = new ArrayList<>();
        for (Frames f : new Frames[] {ehFrame, debugFrame}) {
            if (f == null) {
                continue;
            }
            int pos = 0;
            while (pos < f.data.limit()) {
                long[] next = new long[1];
                Object e = parseEntry(f, pos, next);
                if (e == null) {
                    break;
                }
                if (e instanceof Fde fde && fde.pcRange() != 0) {
                    out.add(fde);
                }
                pos = (int) next[0];
            }
        }
        return out;
    }

    private Fde findInHeader(long pc) throws CannotUnwindException {
        int entrySize = table.entrySize();
        long lo = 0;
        long hi = table.count() - 1;
        long found = -1;
        DwarfCursor c = new DwarfCursor(table.hdr(), table.addr(), 0);
        c.dataRelBase = table.addr();
        while (lo <= hi) {
            long mid = (lo + hi) >>> 1;
            c.pos((int) (table.start() + mid * entrySize));
            long start = c.pointer(table.enc());
            if (Long.compareUnsigned(start, pc) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (found < 0) {
            return null;
        }
        c.pos((int) (table.start() + found * entrySize));
        c.pointer(table.enc());
        long fdeAddr = c.pointer(table.enc());
        long off = fdeAddr - ehFrame.addr;
        if (off < 0 || off >= ehFrame.data.limit()) {
            throw new CannotUnwindException(name + ": .eh_frame_hdr points outside .eh_frame");
        }
        Fde f = fdeAt(ehFrame, off);
        return f != null && f.covers(pc) ? f : null;
    }

    private static Fde findInIndex(Frames f, long pc) throws CannotUnwindException {
        long[] begins = f.begins;
        int found = AddressSearch.floor(begins, pc);
        // Ranges may nest or overlap in odd files: look back a few entries.
        for (int i = found; i >= 0 && i > found - 4; i--) {
            if (Long.compareUnsigned(pc, f.ends[i]) < 0 && Long.compareUnsigned(pc, begins[i]) >= 0) {
                return fdeAt(f, f.offsets[i]);
            }
        }
        return null;
    }

    private static Fde fdeAt(Frames f, long off) throws CannotUnwindException {
        Fde cached = f.fdes.get(off);
        if (cached != null) {
            return cached;
        }
        Object e = parseEntry(f, (int) off, new long[1]);
        if (!(e instanceof Fde fde)) {
            throw new CannotUnwindException("no FDE at offset " + off);
        }
        f.fdes.put(off, fde);
        return fde;
    }

    /** Sorts the section's FDE ranges (the elf module's one walk over CFI entries). */
    private static void buildIndex(Frames f) {
        List<FrameDescription> rows = FrameDescriptions.read(f.data, f.addr, f.eh);
        f.begins = rows.stream().mapToLong(FrameDescription::begin).toArray();
        f.ends = rows.stream().mapToLong(FrameDescription::end).toArray();
        f.offsets = rows.stream().mapToLong(FrameDescription::offset).toArray();
    }

    /**
     * Parses the entry at {@code pos}: a {@link Cie}, an {@link Fde}, or null at the end
     * (a zero terminator). {@code next[0]} receives the next entry's offset.
     */
    private static Object parseEntry(Frames f, int pos, long[] next) throws CannotUnwindException {
        DwarfCursor c = new DwarfCursor(f.data, f.addr, pos);
        if (f.elf != null) {
            c.indirect = f.elf::longAt;
        }
        if (f.data.limit() - pos < 4) {
            return null;
        }
        long length = c.u32();
        if (length == 0) {
            if (f.eh) {
                return null; // the terminator
            }
            next[0] = c.pos();
            return Boolean.FALSE;
        }
        boolean dwarf64 = length == 0xffffffffL;
        if (dwarf64) {
            length = c.u64();
        }
        long end = c.pos() + length;
        if (end > f.data.limit() || length < 4) {
            throw new CannotUnwindException("CFI entry at " + pos + " runs past its section");
        }
        next[0] = end;
        int idPos = c.pos();
        long id = dwarf64 ? c.u64() : c.u32();
        boolean isCie = f.eh ? id == 0 : dwarf64 ? id == -1L : id == 0xffffffffL;
        if (isCie) {
            return cieAt(f, pos, new long[1]);
        }
        long ciePos = f.eh ? idPos - id : id;
        Cie cie = cieAt(f, ciePos, new long[1]);
        if (cie == null) {
            throw new CannotUnwindException("FDE at " + pos + " has no CIE at " + ciePos);
        }
        long pcBegin;
        long pcRange;
        if (f.eh) {
            pcBegin = c.pointer(cie.fdeEncoding() & 0x7f);
            pcRange = c.format(cie.fdeEncoding());
        } else {
            pcBegin = c.u64();
            pcRange = c.u64();
        }
        if (cie.hasAugmentationData()) {
            c.skip(c.uleb());
        }
        int instrPos = c.pos();
        if (instrPos > end) {
            throw new CannotUnwindException("FDE at " + pos + " is malformed");
        }
        byte[] instr = new byte[(int) (end - instrPos)];
        f.data.get(instrPos, instr);
        return new Fde(pos, cie, pcBegin, pcRange, instr, f.addr + instrPos);
    }

    private static Cie cieAt(Frames f, long pos, long[] unused) throws CannotUnwindException {
        Cie cached = f.cies.get(pos);
        if (cached != null) {
            return cached;
        }
        if (pos < 0 || pos + 4 > f.data.limit()) {
            return null;
        }
        DwarfCursor c = new DwarfCursor(f.data, f.addr, (int) pos);
        if (f.elf != null) {
            c.indirect = f.elf::longAt;
        }
        long length = c.u32();
        boolean dwarf64 = length == 0xffffffffL;
        if (dwarf64) {
            length = c.u64();
        }
        long end = c.pos() + length;
        if (end > f.data.limit()) {
            throw new CannotUnwindException("CIE at " + pos + " runs past its section");
        }
        long id = dwarf64 ? c.u64() : c.u32();
        boolean isCie = f.eh ? id == 0 : dwarf64 ? id == -1L : id == 0xffffffffL;
        if (!isCie) {
            throw new CannotUnwindException("entry at " + pos + " is not a CIE");
        }
        int version = c.u8();
        if (version != 1 && version != 3 && version != 4) {
            throw new CannotUnwindException("CIE version " + version + " at " + pos);
        }
        String aug = c.cString();
        if (aug.contains("eh")) {
            c.u64();
        }
        if (version >= 4) {
            int addrSize = c.u8();
            c.u8(); // segment selector size
            if (addrSize != 8) {
                throw new CannotUnwindException("CIE address size " + addrSize);
            }
        }
        long codeAlign = c.uleb();
        long dataAlign = c.sleb();
        int ra = version == 1 ? c.u8() : (int) c.uleb();
        int fdeEnc = DwarfCursor.PE_ABSPTR;
        int lsdaEnc = DwarfCursor.PE_OMIT;
        boolean signal = false;
        boolean z = aug.startsWith("z");
        if (z) {
            long augLen = c.uleb();
            int augEnd = (int) (c.pos() + augLen);
            for (int i = 1; i < aug.length(); i++) {
                switch (aug.charAt(i)) {
                    case 'L' -> lsdaEnc = c.u8();
                    case 'P' -> {
                        int penc = c.u8();
                        c.pointer(penc & 0x7f); // the personality routine is not needed to unwind
                    }
                    case 'R' -> fdeEnc = c.u8();
                    case 'S' -> signal = true;
                    case 'B', 'G' -> {}
                    default -> i = aug.length(); // unknown: the length lets us skip the rest
                }
            }
            c.pos(augEnd);
        } else if (!aug.isEmpty() && !aug.equals("eh")) {
            throw new CannotUnwindException("CIE augmentation \"" + aug + "\" is not understood");
        }
        byte[] instr = new byte[(int) (end - c.pos())];
        int instrPos = c.pos();
        f.data.get(instrPos, instr);
        Cie cie = new Cie(
                pos, version, aug, codeAlign, dataAlign, ra, fdeEnc, lsdaEnc, signal, z, instr, f.addr + instrPos);
        f.cies.put(pos, cie);
        return cie;
    }

    @Override
    public String toString() {
        return "CfiTable[" + name + (usesHeaderTable() ? ", eh_frame_hdr " + table.count() + " entries" : "")
                + (ehFrame != null && ehFrame.begins != null ? ", eh_frame " + ehFrame.begins.length + " FDEs" : "")
                + (debugFrame != null
                        ? ", debug_frame "
                                + Arrays.stream(new long[] {debugFrame.begins.length})
                                        .sum() + " FDEs"
                        : "")
                + "]";
    }
}
