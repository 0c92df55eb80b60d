package org.rocprofsys.sampler.unwind;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * A minimal read-only ELF64 little-endian reader over a memory-mapped file: the section headers
 * (by name) and the program headers, enough to find the unwind tables and the load bias. Pure
 * Java; files over 2 GiB are refused.
 */
public final class ElfImage {
    public static final int PT_LOAD = 1;
    public static final int PT_GNU_EH_FRAME = 0x6474e550;
    public static final int SHT_NOBITS = 8;
    public static final long SHF_COMPRESSED = 0x800;
    public static final int PF_X = 1;

    /** A section header. */
    public record Section(String name, int type, long flags, long addr, long offset, long size) {
    }

    /** A program header. */
    public record Segment(int type, int flags, long offset, long vaddr, long filesz, long memsz) {
        public boolean executable() {
            return (flags & PF_X) != 0;
        }
    }

    private final Path path;
    private final ByteBuffer data;
    private final Map<String, Section> sections;
    private final List<Segment> segments;

    private ElfImage(Path path, ByteBuffer data) throws IOException {
        this.path = path;
        this.data = data.order(ByteOrder.LITTLE_ENDIAN);
        if (data.limit() < 64 || data.getInt(0) != 0x464c457f) {
            throw new IOException(path + ": not an ELF file");
        }
        if (data.get(4) != 2 || data.get(5) != 1) {
            throw new IOException(path + ": not ELF64 little-endian");
        }
        long phoff = data.getLong(0x20);
        long shoff = data.getLong(0x28);
        int phentsize = Short.toUnsignedInt(data.getShort(0x36));
        int phnum = Short.toUnsignedInt(data.getShort(0x38));
        int shentsize = Short.toUnsignedInt(data.getShort(0x3a));
        int shnum = Short.toUnsignedInt(data.getShort(0x3c));
        int shstrndx = Short.toUnsignedInt(data.getShort(0x3e));
        List<Segment> segs = new ArrayList<>();
        for (int i = 0; i < phnum && phoff > 0; i++) {
            int p = checkedIndex(phoff + (long) i * phentsize, 56);
            segs.add(new Segment(data.getInt(p), data.getInt(p + 4), data.getLong(p + 8), data.getLong(p + 16),
                    data.getLong(p + 32), data.getLong(p + 40)));
        }
        this.segments = Collections.unmodifiableList(segs);
        Map<String, Section> secs = new LinkedHashMap<>();
        if (shoff > 0 && shentsize >= 64) {
            if (shnum == 0) { // extended numbering: the count is in section 0's sh_size
                shnum = (int) data.getLong(checkedIndex(shoff, 64) + 32);
            }
            if (shstrndx == 0xffff) {
                shstrndx = data.getInt(checkedIndex(shoff, 64) + 40);
            }
            if (shstrndx < shnum) {
                int strHdr = checkedIndex(shoff + (long) shstrndx * shentsize, 64);
                long strOff = data.getLong(strHdr + 24);
                long strSize = data.getLong(strHdr + 32);
                for (int i = 0; i < shnum; i++) {
                    int s = checkedIndex(shoff + (long) i * shentsize, 64);
                    int nameOff = data.getInt(s);
                    String name = nameOff >= 0 && nameOff < strSize ? cString(strOff + nameOff) : "";
                    Section sec = new Section(name, data.getInt(s + 4), data.getLong(s + 8), data.getLong(s + 16),
                            data.getLong(s + 24), data.getLong(s + 32));
                    secs.putIfAbsent(name, sec);
                }
            }
        }
        this.sections = Collections.unmodifiableMap(secs);
    }

    /** Maps and parses {@code path}. */
    public static ElfImage open(Path path) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size > Integer.MAX_VALUE) {
                throw new IOException(path + ": ELF files over 2 GiB are not supported");
            }
            MappedByteBuffer buf = ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
            return new ElfImage(path, buf);
        }
    }

    /** Parses an ELF image held in memory (tests). */
    public static ElfImage of(byte[] bytes) throws IOException {
        return new ElfImage(Path.of("<memory>"), ByteBuffer.wrap(bytes));
    }

    public Path path() {
        return path;
    }

    public Map<String, Section> sections() {
        return sections;
    }

    public List<Segment> segments() {
        return segments;
    }

    public Section section(String name) {
        return sections.get(name);
    }

    /**
     * The bytes of a section (a read-only view, or the inflated bytes of an SHF_COMPRESSED zlib
     * section), or null when absent or NOBITS.
     */
    public ByteBuffer sectionData(String name) throws IOException {
        Section s = sections.get(name);
        if (s == null || s.type() == SHT_NOBITS || s.size() == 0) {
            return null;
        }
        ByteBuffer raw = slice(s.offset(), s.size());
        if ((s.flags() & SHF_COMPRESSED) == 0) {
            return raw;
        }
        if (raw.getInt(0) != 1) {
            throw new IOException(path + ": section " + name + " uses an unsupported compression " + raw.getInt(0));
        }
        long outSize = raw.getLong(8);
        if (outSize > Integer.MAX_VALUE) {
            throw new IOException(path + ": section " + name + " too large");
        }
        byte[] in = new byte[raw.limit() - 24];
        raw.get(24, in);
        byte[] out = new byte[(int) outSize];
        Inflater inf = new Inflater();
        try {
            inf.setInput(in);
            int n = inf.inflate(out);
            if (n != out.length) {
                throw new IOException(path + ": section " + name + " inflated to " + n + " of " + outSize + " bytes");
            }
        } catch (DataFormatException e) {
            throw new IOException(path + ": section " + name + ": " + e.getMessage(), e);
        } finally {
            inf.end();
        }
        return ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** A little-endian view of file bytes [offset, offset + size). */
    public ByteBuffer slice(long offset, long size) throws IOException {
        if (offset < 0 || size < 0 || offset + size > data.limit()) {
            throw new IOException(path + ": range " + offset + "+" + size + " outside the file");
        }
        return data.slice((int) offset, (int) size).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The file offset holding virtual address {@code vaddr} (a PT_LOAD's file bytes), or -1. */
    public long fileOffsetOf(long vaddr) {
        for (Segment s : segments) {
            if (s.type() == PT_LOAD && Long.compareUnsigned(vaddr - s.vaddr(), s.filesz()) < 0) {
                return s.offset() + (vaddr - s.vaddr());
            }
        }
        return -1;
    }

    /** The PT_LOAD segment whose file range holds {@code fileOffset} (executable ones first), or null. */
    public Segment loadSegmentAtOffset(long fileOffset) {
        Segment any = null;
        for (Segment s : segments) {
            if (s.type() == PT_LOAD && fileOffset >= s.offset() && fileOffset < s.offset() + Math.max(s.filesz(), 1)) {
                if (s.executable()) {
                    return s;
                }
                if (any == null) {
                    any = s;
                }
            }
        }
        return any;
    }

    /**
     * The load bias of a mapping of this file at {@code mapStart} from file offset
     * {@code pageOffset}: runtime address = link-time vaddr + bias. Uses the PT_LOAD holding that
     * offset (page-aligned: the segment's vaddr - offset difference carries over).
     */
    public long loadBias(long mapStart, long pageOffset) {
        Segment s = loadSegmentAtOffset(pageOffset);
        if (s == null) {
            // Page-rounded segment starts: find the segment starting within this page.
            for (Segment seg : segments) {
                if (seg.type() == PT_LOAD && (seg.offset() & ~0xfffL) == pageOffset) {
                    s = seg;
                    break;
                }
            }
        }
        long delta = s == null ? 0 : s.vaddr() - s.offset();
        return mapStart - pageOffset - delta;
    }

    /** Reads 8 bytes at virtual address {@code vaddr} from the file, or throws. */
    public long readVaddr8(long vaddr) throws IOException {
        long off = fileOffsetOf(vaddr);
        if (off < 0 || off + 8 > data.limit()) {
            throw new IOException(path + ": address 0x" + Long.toHexString(vaddr) + " has no file bytes");
        }
        return data.getLong((int) off);
    }

    private int checkedIndex(long off, int len) throws IOException {
        if (off < 0 || off + len > data.limit()) {
            throw new IOException(path + ": header at " + off + " outside the file");
        }
        return (int) off;
    }

    private String cString(long off) {
        int start = (int) off;
        int end = start;
        while (end < data.limit() && data.get(end) != 0) {
            end++;
        }
        byte[] b = new byte[end - start];
        data.get(start, b);
        return new String(b, StandardCharsets.ISO_8859_1);
    }
}
