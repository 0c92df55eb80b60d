package org.rocprofsys.instrument.elf;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Address to source file and line, from the DWARF line programs of .debug_line (versions 2 to 5,
 * zlib-compressed sections included), for {@code --label file line}. A file without line
 * information gives an empty table. Read failures in one unit drop that unit, not the table:
 * labels are a convenience.
 */
public final class LineTable {
    /** Where an address comes from: the file as the line program names it, and the line. */
    public record SourceLine(String file, int line) {}

    private static final LineTable EMPTY = new LineTable(new long[0], new int[0], new int[0], List.of());

    private final long[] addresses;  // sorted; a row with line 0 ends a sequence
    private final int[] files;       // index into fileNames
    private final int[] lines;
    private final List<String> fileNames;

    private LineTable(long[] addresses, int[] files, int[] lines, List<String> fileNames) {
        this.addresses = addresses;
        this.files = files;
        this.lines = lines;
        this.fileNames = fileNames;
    }

    public static LineTable read(ElfFile elf) {
        Optional<SectionHeader> line = elf.section(".debug_line");
        if (line.isEmpty() || line.get().type() == SectionHeader.SHT_NOBITS) return EMPTY;
        ByteBuffer data = contents(elf, line.get());
        ByteBuffer lineStr = elf.section(".debug_line_str").map(s -> contents(elf, s)).orElse(null);
        ByteBuffer str = elf.section(".debug_str").map(s -> contents(elf, s)).orElse(null);
        if (data == null) return EMPTY;
        Builder b = new Builder();
        while (data.remaining() > 4) {
            int start = data.position();
            try {
                new Unit(data, lineStr, str, b).run();
            } catch (RuntimeException malformed) {
                // skip to the next unit if its length was readable, else stop
                if (data.position() <= start) break;
            }
        }
        return b.build();
    }

    /**
     * The row that covers {@code address}: among the rows at the greatest address not above it, the
     * first that has a line (rows with line 0 end a sequence), if any.
     */
    public Optional<SourceLine> at(long address) {
        int i = Arrays.binarySearch(addresses, address);
        if (i < 0) i = -i - 2;
        if (i < 0) return Optional.empty();
        long at = addresses[i];
        while (i > 0 && addresses[i - 1] == at) i--;
        for (; i < addresses.length && addresses[i] == at; i++) {
            if (lines[i] != 0) return Optional.of(new SourceLine(fileNames.get(files[i]), lines[i]));
        }
        return Optional.empty();
    }

    public boolean isEmpty() {
        return addresses.length == 0;
    }

    private static ByteBuffer contents(ElfFile elf, SectionHeader s) {
        byte[] raw = elf.sectionBytes(s);
        if ((s.flags() & 0x800) != 0) { // SHF_COMPRESSED: Elf64_Chdr then the data
            ByteBuffer h = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
            if (raw.length < 24 || h.getInt(0) != 1) return null; // only ELFCOMPRESS_ZLIB
            long size = h.getLong(8);
            if (size > Integer.MAX_VALUE) return null;
            Inflater inf = new Inflater();
            inf.setInput(raw, 24, raw.length - 24);
            byte[] out = new byte[(int) size];
            try {
                int n = 0;
                while (n < out.length && !inf.finished()) {
                    int k = inf.inflate(out, n, out.length - n);
                    if (k == 0 && (inf.needsInput() || inf.needsDictionary())) break;
                    n += k;
                }
            } catch (DataFormatException e) {
                return null;
            } finally {
                inf.end();
            }
            raw = out;
        }
        return ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static final class Builder {
        long[] a = new long[1024];
        int[] f = new int[1024];
        int[] l = new int[1024];
        int n;
        final List<String> names = new ArrayList<>();

        void row(long address, int file, int line) {
            if (n == a.length) {
                a = Arrays.copyOf(a, n * 2);
                f = Arrays.copyOf(f, n * 2);
                l = Arrays.copyOf(l, n * 2);
            }
            a[n] = address;
            f[n] = file;
            l[n] = line;
            n++;
        }

        LineTable build() {
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) order[i] = i;
            // stable: rows of one address keep their program order
            Arrays.sort(order, (x, y) -> Long.compare(a[x], a[y]));
            long[] as = new long[n];
            int[] fs = new int[n];
            int[] ls = new int[n];
            for (int i = 0; i < n; i++) {
                as[i] = a[order[i]];
                fs[i] = f[order[i]];
                ls[i] = l[order[i]];
            }
            return new LineTable(as, fs, ls, List.copyOf(names));
        }
    }

    /** One line-number program (a unit of .debug_line). */
    private static final class Unit {
        private final ByteBuffer d;
        private final ByteBuffer lineStr;
        private final ByteBuffer str;
        private final Builder out;
        private final List<Integer> fileIds = new ArrayList<>();
        private int version;

        Unit(ByteBuffer d, ByteBuffer lineStr, ByteBuffer str, Builder out) {
            this.d = d;
            this.lineStr = lineStr;
            this.str = str;
            this.out = out;
        }

        void run() {
            long length = Integer.toUnsignedLong(d.getInt());
            boolean dwarf64 = length == 0xffffffffL;
            if (dwarf64) length = d.getLong();
            int end = (int) Math.min(d.limit(), d.position() + length);
            try {
                version = Short.toUnsignedInt(d.getShort());
                if (version < 2 || version > 5) return;
                if (version >= 5) {
                    d.get(); // address_size
                    d.get(); // segment_selector_size
                }
                long headerLength = dwarf64 ? d.getLong() : Integer.toUnsignedLong(d.getInt());
                int programStart = (int) (d.position() + headerLength);
                int minInst = Byte.toUnsignedInt(d.get());
                if (version >= 4) d.get(); // maximum_operations_per_instruction
                boolean defaultIsStmt = d.get() != 0;
                int lineBase = d.get();
                int lineRange = Byte.toUnsignedInt(d.get());
                int opcodeBase = Byte.toUnsignedInt(d.get());
                int[] stdLengths = new int[opcodeBase];
                for (int i = 1; i < opcodeBase; i++) stdLengths[i] = Byte.toUnsignedInt(d.get());
                List<String> dirs = new ArrayList<>();
                if (version >= 5) {
                    readEntries(dwarf64, dirs, true);
                    readEntries(dwarf64, dirs, false);
                } else {
                    dirs.add("");
                    for (String s = cstr(d); !s.isEmpty(); s = cstr(d)) dirs.add(s);
                    fileIds.add(-1); // files are numbered from 1 before DWARF 5
                    for (String s = cstr(d); !s.isEmpty(); s = cstr(d)) {
                        uleb(); uleb(); uleb();
                        fileIds.add(name(s));
                    }
                }
                d.position(programStart);
                execute(end, minInst, defaultIsStmt, lineBase, lineRange, opcodeBase, stdLengths);
            } finally {
                d.position(end);
            }
        }

        private int name(String s) {
            out.names.add(s);
            return out.names.size() - 1;
        }

        /** DWARF 5 directory or file entry tables; files get their DW_LNCT_path as name. */
        private void readEntries(boolean dwarf64, List<String> dirs, boolean directories) {
            int formatCount = Byte.toUnsignedInt(d.get());
            long[] types = new long[formatCount];
            long[] forms = new long[formatCount];
            for (int i = 0; i < formatCount; i++) {
                types[i] = uleb();
                forms[i] = uleb();
            }
            long count = uleb();
            for (long e = 0; e < count; e++) {
                String path = "";
                for (int i = 0; i < formatCount; i++) {
                    String v = form((int) forms[i], dwarf64);
                    if (types[i] == 1) path = v; // DW_LNCT_path
                }
                if (directories) dirs.add(path);
                else fileIds.add(name(path));
            }
        }

        /** Reads one attribute value; strings are returned, other values as "" (only paths are kept). */
        private String form(int form, boolean dwarf64) {
            switch (form) {
                case 0x08: return cstr(d);                                   // string
                case 0x1f: return strAt(lineStr, offset(dwarf64));           // line_strp
                case 0x0e: return strAt(str, offset(dwarf64));               // strp
                case 0x0f: uleb(); return "";                                // udata
                case 0x0b: d.get(); return "";                               // data1
                case 0x05: d.getShort(); return "";                          // data2
                case 0x06: d.getInt(); return "";                            // data4
                case 0x07: d.getLong(); return "";                           // data8
                case 0x1e: d.position(d.position() + 16); return "";         // data16 (MD5)
                case 0x09: d.position(d.position() + (int) uleb()); return ""; // block
                default: throw new IllegalStateException("DWARF form " + form + " in a line table header");
            }
        }

        private long offset(boolean dwarf64) {
            return dwarf64 ? d.getLong() : Integer.toUnsignedLong(d.getInt());
        }

        private void execute(int end, int minInst, boolean defaultIsStmt, int lineBase, int lineRange, int opcodeBase,
                int[] stdLengths) {
            long address = 0;
            int file = 1;
            int line = 1;
            while (d.position() < end) {
                int op = Byte.toUnsignedInt(d.get());
                if (op >= opcodeBase) {
                    int adj = op - opcodeBase;
                    address += (long) (adj / lineRange) * minInst;
                    line += lineBase + adj % lineRange;
                    emit(address, file, line);
                    continue;
                }
                switch (op) {
                    case 0 -> {
                        long len = uleb();
                        int next = (int) (d.position() + len);
                        int sub = len > 0 ? Byte.toUnsignedInt(d.get()) : 0;
                        if (sub == 1) { // end_sequence
                            out.row(address, 0, 0);
                            address = 0;
                            file = 1;
                            line = 1;
                        } else if (sub == 2) {
                            address = len - 1 == 8 ? d.getLong() : Integer.toUnsignedLong(d.getInt());
                        } else if (sub == 3 && version < 5) {
                            String s = cstr(d);
                            uleb(); uleb(); uleb();
                            fileIds.add(name(s));
                        }
                        d.position(next);
                    }
                    case 1 -> emit(address, file, line);
                    case 2 -> address += uleb() * minInst;
                    case 3 -> line += (int) sleb();
                    case 4 -> file = (int) uleb();
                    case 5, 12 -> uleb();
                    case 6, 7, 10, 11 -> { }
                    case 8 -> address += (long) ((255 - opcodeBase) / lineRange) * minInst;
                    case 9 -> address += Short.toUnsignedInt(d.getShort());
                    default -> {
                        for (int i = 0; i < stdLengths[op]; i++) uleb();
                    }
                }
            }
        }

        private void emit(long address, int file, int line) {
            if (file < 0 || file >= fileIds.size() || fileIds.get(file) < 0 || line <= 0) return;
            out.row(address, fileIds.get(file), line);
        }

        private long uleb() {
            long result = 0;
            int shift = 0;
            while (true) {
                int b = Byte.toUnsignedInt(d.get());
                if (shift < 64) result |= (long) (b & 0x7f) << shift;
                shift += 7;
                if ((b & 0x80) == 0) return result;
            }
        }

        private long sleb() {
            long result = 0;
            int shift = 0;
            int b;
            do {
                b = Byte.toUnsignedInt(d.get());
                if (shift < 64) result |= (long) (b & 0x7f) << shift;
                shift += 7;
            } while ((b & 0x80) != 0);
            if (shift < 64 && (b & 0x40) != 0) result |= -1L << shift;
            return result;
        }
    }

    private static String cstr(ByteBuffer b) {
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        for (byte c = b.get(); c != 0; c = b.get()) s.write(c);
        return s.toString(StandardCharsets.UTF_8);
    }

    private static String strAt(ByteBuffer b, long offset) {
        if (b == null || offset >= b.limit()) return "";
        int i = (int) offset;
        int j = i;
        while (j < b.limit() && b.get(j) != 0) j++;
        byte[] out = new byte[j - i];
        b.get(i, out);
        return new String(out, StandardCharsets.UTF_8);
    }
}
