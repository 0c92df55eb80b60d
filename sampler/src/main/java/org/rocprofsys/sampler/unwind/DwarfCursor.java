package org.rocprofsys.sampler.unwind;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A position in a little-endian DWARF byte block: fixed-size integers, LEB128 and the
 * {@code DW_EH_PE_*} pointer encodings of .eh_frame. {@code sectionAddr} is the link-time address
 * of byte 0 (for pcrel), {@code dataRelBase} the base of datarel (the .eh_frame_hdr address in the
 * header's table).
 */
public final class DwarfCursor {
    // DW_EH_PE_* formats (low nibble) and applications (bits 4-6), indirect (bit 7), omit.
    public static final int PE_ABSPTR = 0x00;
    public static final int PE_ULEB128 = 0x01;
    public static final int PE_UDATA2 = 0x02;
    public static final int PE_UDATA4 = 0x03;
    public static final int PE_UDATA8 = 0x04;
    public static final int PE_SLEB128 = 0x09;
    public static final int PE_SDATA2 = 0x0a;
    public static final int PE_SDATA4 = 0x0b;
    public static final int PE_SDATA8 = 0x0c;
    public static final int PE_PCREL = 0x10;
    public static final int PE_TEXTREL = 0x20;
    public static final int PE_DATAREL = 0x30;
    public static final int PE_FUNCREL = 0x40;
    public static final int PE_ALIGNED = 0x50;
    public static final int PE_INDIRECT = 0x80;
    public static final int PE_OMIT = 0xff;

    /** Reads 8 bytes at a link-time address (for DW_EH_PE_indirect), or null if none. */
    public interface IndirectReader {
        long read8(long vaddr) throws Exception;
    }

    private final ByteBuffer buf;
    private final long sectionAddr;
    private int pos;
    long dataRelBase;
    long textRelBase;
    long funcRelBase;
    IndirectReader indirect;

    public DwarfCursor(ByteBuffer buf, long sectionAddr, int pos) {
        this.buf = buf.order(ByteOrder.LITTLE_ENDIAN);
        this.sectionAddr = sectionAddr;
        this.pos = pos;
    }

    public static DwarfCursor of(byte[] bytes) {
        return new DwarfCursor(ByteBuffer.wrap(bytes), 0, 0);
    }

    public int pos() {
        return pos;
    }

    public void pos(int p) {
        pos = p;
    }

    public int limit() {
        return buf.limit();
    }

    public boolean hasMore(int end) {
        return pos < end;
    }

    /** The link-time address of the current position. */
    public long address() {
        return sectionAddr + pos;
    }

    public ByteBuffer buffer() {
        return buf;
    }

    private void need(int n) throws CannotUnwindException {
        if (pos < 0 || pos + n > buf.limit()) {
            throw new CannotUnwindException("unwind data truncated at offset " + pos);
        }
    }

    public int u8() throws CannotUnwindException {
        need(1);
        return Byte.toUnsignedInt(buf.get(pos++));
    }

    public int u16() throws CannotUnwindException {
        need(2);
        int v = Short.toUnsignedInt(buf.getShort(pos));
        pos += 2;
        return v;
    }

    public long u32() throws CannotUnwindException {
        need(4);
        long v = Integer.toUnsignedLong(buf.getInt(pos));
        pos += 4;
        return v;
    }

    public long u64() throws CannotUnwindException {
        need(8);
        long v = buf.getLong(pos);
        pos += 8;
        return v;
    }

    public long uleb() throws CannotUnwindException {
        long result = 0;
        int shift = 0;
        while (true) {
            int b = u8();
            if (shift < 64) {
                result |= (long) (b & 0x7f) << shift;
            }
            shift += 7;
            if ((b & 0x80) == 0) {
                return result;
            }
        }
    }

    public long sleb() throws CannotUnwindException {
        long result = 0;
        int shift = 0;
        int b;
        do {
            b = u8();
            if (shift < 64) {
                result |= (long) (b & 0x7f) << shift;
            }
            shift += 7;
        } while ((b & 0x80) != 0);
        if (shift < 64 && (b & 0x40) != 0) {
            result |= -1L << shift;
        }
        return result;
    }

    public byte[] bytes(int n) throws CannotUnwindException {
        need(n);
        byte[] out = new byte[n];
        buf.get(pos, out);
        pos += n;
        return out;
    }

    public String cString() throws CannotUnwindException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = u8()) != 0) {
            sb.append((char) c);
        }
        return sb.toString();
    }

    public void skip(long n) throws CannotUnwindException {
        if (n < 0 || n > Integer.MAX_VALUE) {
            throw new CannotUnwindException("bad length " + n);
        }
        need((int) n);
        pos += (int) n;
    }

    /** Reads a value of the format alone (no application): the pc_range of an FDE. */
    public long format(int enc) throws CannotUnwindException {
        return switch (enc & 0x0f) {
            case PE_ABSPTR, PE_UDATA8, PE_SDATA8 -> u64();
            case PE_ULEB128 -> uleb();
            case PE_UDATA2 -> u16();
            case PE_UDATA4 -> u32();
            case PE_SLEB128 -> sleb();
            case PE_SDATA2 -> (short) u16();
            case PE_SDATA4 -> (int) u32();
            default -> throw new CannotUnwindException("unknown pointer format 0x" + Integer.toHexString(enc));
        };
    }

    /** Reads an encoded pointer; DW_EH_PE_omit gives 0 and reads nothing. */
    public long pointer(int enc) throws CannotUnwindException {
        if (enc == PE_OMIT) {
            return 0;
        }
        if ((enc & 0x70) == PE_ALIGNED) {
            pos = (pos + 7) & ~7;
        }
        long fieldAddr = address();
        long v = format(enc);
        v += switch (enc & 0x70) {
            case 0, PE_ALIGNED -> 0L;
            case PE_PCREL -> fieldAddr;
            case PE_TEXTREL -> textRelBase;
            case PE_DATAREL -> dataRelBase;
            case PE_FUNCREL -> funcRelBase;
            default -> throw new CannotUnwindException("unknown pointer application 0x" + Integer.toHexString(enc));
        };
        if ((enc & PE_INDIRECT) != 0) {
            if (indirect == null) {
                throw new CannotUnwindException("indirect pointer without a file to read it from");
            }
            try {
                v = indirect.read8(v);
            } catch (Exception e) {
                throw new CannotUnwindException("indirect pointer at 0x" + Long.toHexString(v) + ": " + e.getMessage());
            }
        }
        return v;
    }
}
