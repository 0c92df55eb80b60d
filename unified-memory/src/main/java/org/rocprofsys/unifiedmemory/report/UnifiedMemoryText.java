package org.rocprofsys.unifiedmemory.report;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rocprofsys.core.gpu.MigrationDirection;
import org.rocprofsys.core.gpu.MigrationTrigger;

/**
 * {@code unified_memory.txt} as seed 000 shows it: per device a table of migrations by direction
 * (rows only for directions that had any), then the page faults and the triggers that occurred.
 * Columns are right-aligned to their widest cell (the seed lost its alignment).
 */
public final class UnifiedMemoryText {
    private static final long MIB = 1024 * 1024;
    private static final List<String> HEADER = List.of(
            "Count", "Avg Size", "Min Size", "Max Size", "Total Size", "Total Time", "Migration Throughput", "Name");

    private UnifiedMemoryText() {}

    public static String render(int pid, UnifiedMemoryReport report) {
        StringBuilder out = new StringBuilder();
        out.append("==").append(pid).append("== Unified Memory profiling result:\n");
        for (Map.Entry<Integer, Map<MigrationDirection, MigrationTotals>> device :
                report.devices().entrySet()) {
            out.append("Device \"")
                    .append(report.deviceName(device.getKey()))
                    .append(" (")
                    .append(device.getKey())
                    .append(")\"\n");
            List<List<String>> rows = new ArrayList<>();
            rows.add(HEADER);
            for (MigrationDirection direction : MigrationDirection.values()) {
                MigrationTotals t = device.getValue().get(direction);
                if (t != null && t.count() > 0) {
                    rows.add(row(t, direction));
                }
            }
            table(out, rows);
        }
        out.append("Total Page Faults: ").append(report.pageFaults()).append('\n');
        out.append("Migration Triggers:\n");
        for (MigrationTrigger trigger : MigrationTrigger.values()) {
            long n = report.triggers(trigger);
            if (n > 0) {
                out.append(trigger.title()).append(": ").append(n).append('\n');
            }
        }
        return out.toString();
    }

    private static List<String> row(MigrationTotals t, MigrationDirection direction) {
        return List.of(
                Long.toString(t.count()),
                size(t.averageBytes()),
                size(BigDecimal.valueOf(t.minBytes())),
                size(BigDecimal.valueOf(t.maxBytes())),
                size(BigDecimal.valueOf(t.totalBytes())),
                BigDecimal.valueOf(t.totalTimeNs())
                                .divide(BigDecimal.valueOf(1_000_000), 4, RoundingMode.HALF_EVEN)
                                .toPlainString()
                        + "ms",
                t.throughputGbPerSecond().toPlainString() + " GB/s",
                direction.title());
    }

    /**
     * Binary units with 4 decimals, as the seed prints them: MB (bytes / 2^20) from 1 MiB up, KB
     * (bytes / 2^10) below; ties to even, as C's printf rounds (181829632 B is 173.4062MB).
     */
    static String size(BigDecimal bytes) {
        boolean mebibytes = bytes.compareTo(BigDecimal.valueOf(MIB)) >= 0;
        BigDecimal unit = BigDecimal.valueOf(mebibytes ? MIB : 1024);
        return bytes.divide(unit, 4, RoundingMode.HALF_EVEN).toPlainString() + (mebibytes ? "MB" : "KB");
    }

    /** Right-aligns every column but the last (the name) to its widest cell. */
    private static void table(StringBuilder out, List<List<String>> rows) {
        int columns = HEADER.size();
        int[] width = new int[columns];
        for (List<String> row : rows) {
            for (int c = 0; c < columns; c++) {
                width[c] = Math.max(width[c], row.get(c).length());
            }
        }
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < columns - 1; c++) {
                line.append(" ".repeat(width[c] - row.get(c).length()))
                        .append(row.get(c))
                        .append("  ");
            }
            line.append(row.get(columns - 1));
            out.append(line.toString().stripTrailing()).append('\n');
        }
    }
}
