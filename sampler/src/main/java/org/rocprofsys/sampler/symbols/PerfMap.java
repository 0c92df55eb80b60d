package org.rocprofsys.sampler.symbols;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.rocprofsys.sampler.AddressSearch;

/**
 * A JIT symbol map {@code /tmp/perf-<pid>.map}: lines {@code START SIZE name} (START and SIZE in
 * hex, with or without 0x), as written by JVMs ({@code -XX:+DumpPerfMapAtExit}), V8, LuaJIT,
 * Python 3.12 ({@code -X perf}). Later lines win where entries overlap at the same start.
 */
public final class PerfMap {
    public record Entry(long start, long size, String name) {}

    private final long[] starts;
    private final long[] sizes;
    private final String[] names;

    private PerfMap(List<Entry> entries) {
        int n = entries.size();
        starts = new long[n];
        sizes = new long[n];
        names = new String[n];
        for (int i = 0; i < n; i++) {
            starts[i] = entries.get(i).start();
            sizes[i] = entries.get(i).size();
            names[i] = entries.get(i).name();
        }
    }

    public static Path pathFor(Path dir, int pid) {
        return dir.resolve("perf-" + pid + ".map");
    }

    /** Parses a map file; malformed lines are skipped. */
    public static PerfMap load(Path file) throws IOException {
        List<Entry> entries = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                Entry e = parse(line);
                if (e != null) {
                    entries.add(e);
                }
            }
        }
        // stable sort: among equal starts the last written stays last and wins in lookup
        entries.sort(Comparator.comparing(Entry::start, Long::compareUnsigned));
        return new PerfMap(entries);
    }

    static Entry parse(String line) {
        String s = line.strip();
        int a = s.indexOf(' ');
        if (a <= 0) {
            return null;
        }
        int b = s.indexOf(' ', a + 1);
        if (b <= a + 1) {
            return null;
        }
        try {
            long start = Long.parseUnsignedLong(hex(s.substring(0, a)), 16);
            long size = Long.parseUnsignedLong(hex(s.substring(a + 1, b)), 16);
            return new Entry(start, size, s.substring(b + 1));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String hex(String v) {
        return v.startsWith("0x") || v.startsWith("0X") ? v.substring(2) : v;
    }

    /** The entry holding {@code pc}, or null. */
    public Entry lookup(long pc) {
        int found = AddressSearch.floor(starts, pc);
        for (int i = found, k = 0; i >= 0 && k < 8; i--, k++) {
            if (Long.compareUnsigned(pc - starts[i], Math.max(sizes[i], 1)) < 0) {
                return new Entry(starts[i], sizes[i], names[i]);
            }
        }
        return null;
    }

    public int size() {
        return starts.length;
    }
}
