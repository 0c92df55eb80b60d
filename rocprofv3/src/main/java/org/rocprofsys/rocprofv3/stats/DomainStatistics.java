package org.rocprofsys.rocprofv3.stats;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rocprofsys.core.gpu.stats.DurationStats;
import org.rocprofsys.rocprofv3.trace.TraceFile;
import org.rocprofsys.rocprofv3.trace.TraceRow;

/**
 * The durations of one process's rows, per domain (one per trace file: HIP rows apart from HSA,
 * marker and the rest) and per name within it: what --stats, -S and -D print.
 */
public final class DomainStatistics {
    /** One name's durations in its domain. */
    public record Entry(String name, String domain, DurationStats stats) {}

    private final Map<TraceFile, Map<String, DurationStats>> byDomain = new EnumMap<>(TraceFile.class);

    private final Map<TraceFile, DurationStats> domainTotals = new EnumMap<>(TraceFile.class);

    public void add(TraceRow row) {
        domainTotals.computeIfAbsent(row.file(), f -> new DurationStats()).add(row.durationNs());
        byDomain.computeIfAbsent(row.file(), f -> new LinkedHashMap<>())
                .computeIfAbsent(row.statsName(), n -> new DurationStats())
                .add(row.durationNs());
    }

    /** The domains that have rows, in the files' order. */
    public List<TraceFile> domains() {
        return List.copyOf(byDomain.keySet());
    }

    /** A domain's names, the longest total first (rocprofv3's order). */
    public List<Entry> entries(TraceFile domain) {
        List<Entry> out = new ArrayList<>();
        byDomain.getOrDefault(domain, Map.of())
                .forEach((name, stats) -> out.add(new Entry(name, domain.statsDomain, stats)));
        out.sort(Comparator.comparingLong((Entry e) -> e.stats().sum()).reversed());
        return out;
    }

    /** Every domain's names together, the longest total first (the -S summary). */
    public List<Entry> all() {
        List<Entry> out = new ArrayList<>();
        for (TraceFile d : byDomain.keySet()) {
            out.addAll(entries(d));
        }
        out.sort(Comparator.comparingLong((Entry e) -> e.stats().sum()).reversed());
        return out;
    }

    /** One entry per domain, all of its rows together (domain_stats.csv). */
    public List<Entry> perDomain() {
        List<Entry> out = new ArrayList<>();
        domainTotals.forEach((domain, total) -> out.add(new Entry(domain.statsDomain, domain.statsDomain, total)));
        out.sort(Comparator.comparingLong((Entry e) -> e.stats().sum()).reversed());
        return out;
    }
}
