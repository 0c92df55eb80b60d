package org.rocprofsys.core.gpu.stats;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Durations by name: one stats file's rows. */
public final class StatsTable {
    /** One row: {@code percentage} is this row's share of the table's total time. */
    public record Row(
            String name,
            long calls,
            long totalNs,
            double averageNs,
            double percentage,
            long minNs,
            long maxNs,
            double stddev) {}

    private final String name;
    private final Map<String, DurationStats> entries = new LinkedHashMap<>();

    /** @param name the file's name without extension ({@code kernel_stats}, ...) */
    public StatsTable(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    public void add(String entry, long durationNs) {
        entries.computeIfAbsent(entry, e -> new DurationStats()).add(durationNs);
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /** The rows, by total time, longest first (ties by name). */
    public List<Row> rows() {
        long total = entries.values().stream().mapToLong(DurationStats::sum).sum();
        List<Row> rows = new ArrayList<>();
        entries.forEach((n, s) -> rows.add(new Row(
                n,
                s.count(),
                s.sum(),
                s.mean(),
                total == 0 ? 0 : (double) s.sum() / total * 100.0,
                s.min(),
                s.max(),
                s.stddev())));
        rows.sort(Comparator.comparingLong(Row::totalNs).reversed().thenComparing(Row::name));
        return rows;
    }
}
