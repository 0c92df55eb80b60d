package org.rocprofsys.sampler.symbols;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.rocprofsys.sampler.AddressSearch;

/**
 * The kernel's function symbols from {@code /proc/kallsyms}, which names kernel pcs as perf does
 * ({@code [k] copy_user_generic} in perf report). Read once, on the first kernel frame. Where
 * kptr_restrict hides the addresses (all read as 0) or the file cannot be read, nothing is
 * named and {@link #unavailableReason} says why.
 */
public final class KernelSymbols {
    /** The prefix of a kernel frame's name: perf report's mark of kernel symbols. */
    public static final String PREFIX = "[k] ";

    private final long[] starts;
    private final String[] names;
    private final String unavailableReason;

    private KernelSymbols(long[] starts, String[] names, String unavailableReason) {
        this.starts = starts;
        this.names = names;
        this.unavailableReason = unavailableReason;
    }

    private record Entry(long start, String name) {}

    /** The text symbols of {@code kallsyms} (a /proc/kallsyms-format file). */
    public static KernelSymbols load(Path kallsyms) {
        List<Entry> entries = new ArrayList<>();
        boolean hidden = true;
        try (var lines = Files.lines(kallsyms)) {
            for (var it = lines.iterator(); it.hasNext(); ) {
                String line = it.next();
                // "ffffffff81000000 T _stext" or "ffffffffc0a01000 t ext4_foo\t[ext4]"
                int s1 = line.indexOf(' ');
                int s2 = s1 < 0 ? -1 : line.indexOf(' ', s1 + 1);
                if (s2 != s1 + 2) {
                    continue;
                }
                char type = Character.toLowerCase(line.charAt(s1 + 1));
                if (type != 't' && type != 'w') {
                    continue;
                }
                long start = Long.parseUnsignedLong(line, 0, s1, 16);
                hidden &= start == 0;
                int tab = line.indexOf('\t', s2 + 1);
                entries.add(new Entry(start, line.substring(s2 + 1, tab < 0 ? line.length() : tab)));
            }
        } catch (IOException | RuntimeException e) {
            return new KernelSymbols(new long[0], new String[0], kallsyms + " cannot be read (" + e.getMessage() + ")");
        }
        if (entries.isEmpty() || hidden) {
            return new KernelSymbols(
                    new long[0],
                    new String[0],
                    kallsyms + " shows no addresses (kernel.kptr_restrict hides them from this user)");
        }
        entries.sort(Comparator.comparing(Entry::start, Long::compareUnsigned));
        long[] starts = new long[entries.size()];
        String[] names = new String[entries.size()];
        for (int i = 0; i < starts.length; i++) {
            starts[i] = entries.get(i).start();
            names[i] = entries.get(i).name();
        }
        return new KernelSymbols(starts, names, null);
    }

    /**
     * The function holding kernel address {@code pc} (its size unknown: 0), or null where no text
     * symbol lies at or below it.
     */
    public ElfSymbols.Hit lookup(long pc) {
        int i = AddressSearch.floor(starts, pc);
        return i < 0 ? null : new ElfSymbols.Hit(names[i], pc - starts[i], 0, starts[i]);
    }

    /** Why no kernel pc is named, or null when they are. */
    public String unavailableReason() {
        return unavailableReason;
    }
}
