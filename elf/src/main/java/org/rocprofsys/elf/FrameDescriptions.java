package org.rocprofsys.elf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Enumerates the FDEs of an {@code .eh_frame} or {@code .debug_frame} section: their code ranges
 * and whether each starts in a callee's entry state. This is the one walk over CFI entries; the
 * sampler's unwinder indexes its FDEs with it, and symbol-less modules get their function bounds
 * from it (each FDE is a function, as perf's and Dyninst's parsers treat them).
 *
 * <p>A malformed entry ends the walk: what was read before it is kept.
 */
public final class FrameDescriptions {
    private static final int PE_OMIT = 0xff;
    private static final int X86_64_RSP = 7;
    private static final int X86_64_RA = 16;

    private FrameDescriptions() {}

    /** Per CIE: its FDE pointer encoding, whether it carries augmentation data, its entry state. */
    private record CieFacts(int fdeEncoding, boolean augmentationData, boolean entryState) {}

    /** A malformed entry. */
    private static final class Malformed extends Exception {
        Malformed(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * The FDEs of a section, sorted by start address; empty ranges are left out.
     *
     * @param data        the section's bytes (position 0 is the section's start)
     * @param sectionAddr the section's link-time address (for pc-relative pointers)
     * @param eh          {@code .eh_frame} (else {@code .debug_frame}, 64-bit absolute addresses)
     */
    public static List<FrameDescription> read(ByteBuffer data, long sectionAddr, boolean eh) {
        ByteBuffer b = data.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        List<FrameDescription> out = new ArrayList<>();
        Map<Long, CieFacts> cies = new HashMap<>();
        int pos = 0;
        try {
            while (b.limit() - pos >= 4) {
                long length = Integer.toUnsignedLong(b.getInt(pos));
                int at = pos + 4;
                if (length == 0) {
                    if (eh) break; // the terminator
                    pos = at;
                    continue;
                }
                boolean dwarf64 = length == 0xffffffffL;
                if (dwarf64) {
                    need(b, at, 8);
                    length = b.getLong(at);
                    at += 8;
                }
                long end = at + length;
                if (length < 4 || end > b.limit()) throw new Malformed("entry at " + pos + " runs past its section");
                int idPos = at;
                long id = dwarf64 ? b.getLong(at) : Integer.toUnsignedLong(b.getInt(at));
                at += dwarf64 ? 8 : 4;
                boolean isCie = eh ? id == 0 : dwarf64 ? id == -1L : id == 0xffffffffL;
                if (!isCie) {
                    long ciePos = eh ? idPos - id : id;
                    CieFacts cie = cies.get(ciePos);
                    if (cie == null) {
                        cie = cie(b, ciePos, eh, sectionAddr);
                        cies.put(ciePos, cie);
                    }
                    Cursor c = new Cursor(b, at, sectionAddr);
                    long begin = eh ? c.pointer(cie.fdeEncoding() & 0x7f) : c.u64();
                    long range = eh ? c.format(cie.fdeEncoding()) : c.u64();
                    if (cie.augmentationData()) c.pos += (int) c.uleb();
                    if (range != 0 && c.pos <= end) {
                        boolean entry = cie.entryState() && startsUnchanged(b, c.pos, (int) end);
                        out.add(new FrameDescription(begin, begin + range, pos, entry));
                    }
                }
                pos = (int) end;
            }
        } catch (Malformed | RuntimeException e) {
            // keep the FDEs read before the malformed entry
        }
        out.sort((x, y) -> Long.compareUnsigned(x.begin(), y.begin()));
        return out;
    }

    /** The FDEs of {@code .eh_frame} and {@code .debug_frame} (a separate debug file has only the latter), by start. */
    static List<FrameDescription> of(ElfFile elf) {
        List<FrameDescription> all = new ArrayList<>();
        for (String name : List.of(".eh_frame", ".debug_frame")) {
            try {
                var s = elf.section(name);
                var bytes = elf.sectionContents(name);
                if (s.isPresent() && bytes.isPresent()) {
                    all.addAll(read(bytes.get(), s.get().addr(), name.equals(".eh_frame")));
                }
            } catch (ElfFormatException e) {
                // a broken section gives no bounds
            }
        }
        all.sort((x, y) -> Long.compareUnsigned(x.begin(), y.begin()));
        return List.copyOf(all);
    }

    private static CieFacts cie(ByteBuffer b, long pos, boolean eh, long sectionAddr) throws Malformed {
        if (pos < 0 || pos + 4 > b.limit()) throw new Malformed("no CIE at " + pos);
        Cursor c = new Cursor(b, (int) pos, sectionAddr);
        long length = c.u32();
        boolean dwarf64 = length == 0xffffffffL;
        if (dwarf64) length = c.u64();
        long end = c.pos + length;
        if (end > b.limit()) throw new Malformed("CIE at " + pos + " runs past its section");
        long id = dwarf64 ? c.u64() : c.u32();
        if (!(eh ? id == 0 : dwarf64 ? id == -1L : id == 0xffffffffL)) throw new Malformed("no CIE at " + pos);
        int version = c.u8();
        if (version != 1 && version != 3 && version != 4) throw new Malformed("CIE version " + version);
        String aug = c.cString();
        if (aug.contains("eh")) c.u64();
        if (version >= 4) {
            c.u8();
            c.u8();
        }
        c.uleb(); // code alignment
        long dataAlign = c.sleb();
        int ra = version == 1 ? c.u8() : (int) c.uleb();
        int fdeEnc = 0;
        boolean z = aug.startsWith("z");
        boolean signal = false;
        if (z) {
            long augLen = c.uleb();
            int augEnd = (int) (c.pos + augLen);
            for (int i = 1; i < aug.length(); i++) {
                switch (aug.charAt(i)) {
                    case 'L' -> c.u8();
                    case 'P' -> c.skipPointer(c.u8()); // the personality routine: not needed for bounds
                    case 'R' -> fdeEnc = c.u8();
                    case 'S' -> signal = true;
                    default -> i = aug.length();
                }
            }
            c.pos = augEnd;
        } else if (!aug.isEmpty() && !aug.equals("eh")) {
            throw new Malformed("CIE augmentation \"" + aug + "\"");
        }
        boolean entry = !signal && ra == X86_64_RA && calleeEntry(b, c.pos, (int) end, dataAlign);
        return new CieFacts(fdeEnc, z, entry);
    }

    /**
     * Whether a CIE's initial instructions are exactly a callee's entry state on x86-64: CFA =
     * rsp + 8 and the return address saved at CFA - 8 (with any DW_CFA_nop padding).
     */
    private static boolean calleeEntry(ByteBuffer b, int pos, int end, long dataAlign) throws Malformed {
        Cursor c = new Cursor(b, pos, 0);
        boolean cfa = false;
        boolean ra = false;
        while (c.pos < end) {
            int op = c.u8();
            if (op == 0x00) continue; // nop
            if (op == 0x0c) { // def_cfa reg, offset
                cfa = c.uleb() == X86_64_RSP && c.uleb() == 8;
                if (!cfa) return false;
            } else if (op == (0x80 | X86_64_RA)) { // offset r16, factored
                ra = c.uleb() * dataAlign == -8;
                if (!ra) return false;
            } else {
                return false;
            }
        }
        return cfa && ra;
    }

    /** Whether an FDE's instructions change nothing before their first advance (nops only). */
    private static boolean startsUnchanged(ByteBuffer b, int pos, int end) {
        for (int p = pos; p < end; p++) {
            int op = Byte.toUnsignedInt(b.get(p));
            if (op == 0x00) continue;
            return (op & 0xc0) == 0x40 || op == 0x02 || op == 0x03 || op == 0x04;
        }
        return true;
    }

    private static void need(ByteBuffer b, int pos, int n) throws Malformed {
        if (pos < 0 || pos + n > b.limit()) throw new Malformed("truncated at " + pos);
    }

    /** Reads DWARF values and DW_EH_PE_* pointers (no indirect or data-relative ones: FDE ranges never use them). */
    private static final class Cursor {
        final ByteBuffer b;
        final long sectionAddr;
        int pos;

        Cursor(ByteBuffer b, int pos, long sectionAddr) {
            this.b = b;
            this.pos = pos;
            this.sectionAddr = sectionAddr;
        }

        int u8() throws Malformed {
            need(b, pos, 1);
            return Byte.toUnsignedInt(b.get(pos++));
        }

        int u16() throws Malformed {
            need(b, pos, 2);
            int v = Short.toUnsignedInt(b.getShort(pos));
            pos += 2;
            return v;
        }

        long u32() throws Malformed {
            need(b, pos, 4);
            long v = Integer.toUnsignedLong(b.getInt(pos));
            pos += 4;
            return v;
        }

        long u64() throws Malformed {
            need(b, pos, 8);
            long v = b.getLong(pos);
            pos += 8;
            return v;
        }

        long uleb() throws Malformed {
            long result = 0;
            int shift = 0;
            while (true) {
                int v = u8();
                if (shift < 64) result |= (long) (v & 0x7f) << shift;
                shift += 7;
                if ((v & 0x80) == 0) return result;
            }
        }

        long sleb() throws Malformed {
            long result = 0;
            int shift = 0;
            int v;
            do {
                v = u8();
                if (shift < 64) result |= (long) (v & 0x7f) << shift;
                shift += 7;
            } while ((v & 0x80) != 0);
            if (shift < 64 && (v & 0x40) != 0) result |= -1L << shift;
            return result;
        }

        String cString() throws Malformed {
            StringBuilder sb = new StringBuilder();
            int ch;
            while ((ch = u8()) != 0) sb.append((char) ch);
            return sb.toString();
        }

        long format(int enc) throws Malformed {
            return switch (enc & 0x0f) {
                case 0x00, 0x04, 0x0c -> u64();
                case 0x01 -> uleb();
                case 0x02 -> u16();
                case 0x03 -> u32();
                case 0x09 -> sleb();
                case 0x0a -> (short) u16();
                case 0x0b -> (int) u32();
                default -> throw new Malformed("pointer format 0x" + Integer.toHexString(enc));
            };
        }

        void skipPointer(int enc) throws Malformed {
            if (enc == PE_OMIT) return;
            if ((enc & 0x70) == 0x50) pos = (pos + 7) & ~7;
            format(enc);
        }

        long pointer(int enc) throws Malformed {
            if (enc == PE_OMIT) return 0;
            if ((enc & 0x70) == 0x50) pos = (pos + 7) & ~7;
            long fieldAddr = sectionAddr + pos;
            long v = format(enc);
            return switch (enc & 0x70) {
                case 0x00, 0x50 -> v;
                case 0x10 -> v + fieldAddr;
                default -> throw new Malformed("pointer application 0x" + Integer.toHexString(enc));
            };
        }
    }
}
