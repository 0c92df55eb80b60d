package org.rocprofsys.core.rocpd;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rocpd schema, version 3 (inventory section 11): every table suffixed with the run's uuid,
 * an unsuffixed view over each ({@code rocpd_region} reads {@code rocpd_region_<uuid>}), the data
 * and summary views, and the {@code rocpd_metadata} rows {@code schema_version}, {@code uuid} and
 * {@code guid}. The SQL lives in resources beside this class.
 */
public final class RocpdSchema {
    public static final String SCHEMA_VERSION = "3";

    /** Every table, parents before children: the order rows are flushed in. */
    public static final List<String> TABLES = List.of(
            "rocpd_metadata",
            "rocpd_string",
            "rocpd_info_node",
            "rocpd_info_process",
            "rocpd_info_thread",
            "rocpd_info_agent",
            "rocpd_info_queue",
            "rocpd_info_stream",
            "rocpd_info_pmc",
            "rocpd_info_code_object",
            "rocpd_info_kernel_symbol",
            "rocpd_track",
            "rocpd_event",
            "rocpd_arg",
            "rocpd_pmc_event",
            "rocpd_region",
            "rocpd_sample",
            "rocpd_kernel_dispatch",
            "rocpd_memory_copy",
            "rocpd_memory_allocate");

    /**
     * The tables whose ids no column refers to: the metadata, and the children after
     * {@code rocpd_event} in {@link #TABLES} (arguments, counter values, regions, samples,
     * dispatches, copies, allocations).
     */
    static final java.util.Set<String> UNREFERENCED = java.util.stream.Stream.concat(
                    java.util.stream.Stream.of("rocpd_metadata"),
                    TABLES.subList(TABLES.indexOf("rocpd_event") + 1, TABLES.size()).stream())
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    private static final Pattern SUMMARY = Pattern.compile("\\{\\{summary:(\\w+):\"(\\w+)\"}}");

    private final String uuid;
    private final String guid;

    /**
     * @param uuid the run's identity; tables get {@code _<uuid>} (dashes as underscores) as suffix
     * @param guid the value of every row's {@code guid} column
     */
    public RocpdSchema(String uuid, String guid) {
        this.uuid = uuid;
        this.guid = guid;
    }

    /** {@code rocpd_region} -> {@code rocpd_region_<uuid>}: the table rows are inserted into. */
    public String table(String name) {
        return name + suffix();
    }

    private String suffix() {
        return "_" + uuid.replace('-', '_');
    }

    public String uuid() {
        return uuid;
    }

    public String guid() {
        return guid;
    }

    /** Creates tables, views and the metadata rows in one transaction of {@code db}. */
    public void create(Connection db) throws SQLException, IOException {
        try (Statement s = db.createStatement()) {
            for (String sql : statements("rocpd_tables.sql")) {
                s.execute(sql);
            }
            for (String t : TABLES) {
                s.execute("CREATE VIEW \"" + t + "\" AS SELECT * FROM \"" + table(t) + "\"");
            }
            for (String file : List.of("data_views.sql", "summary_views.sql")) {
                for (String sql : statements(file)) {
                    s.execute(sql);
                }
            }
        }
        try (var insert = db.prepareStatement(
                "INSERT INTO \"" + table("rocpd_metadata") + "\" (\"tag\", \"value\") VALUES (?, ?)")) {
            for (String[] row : new String[][] {{"schema_version", SCHEMA_VERSION}, {"uuid", uuid}, {"guid", guid}}) {
                insert.setString(1, row[0]);
                insert.setString(2, row[1]);
                insert.executeUpdate();
            }
        }
    }

    /** The statements of one resource, placeholders filled in. */
    List<String> statements(String resource) throws IOException {
        String text;
        try (InputStream in = RocpdSchema.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("missing schema resource " + resource);
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        text = text.replace("{{uuid}}", suffix()).replace("{{guid}}", guid);
        text = expandSummaries(text);
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\n")) {
            if (line.strip().equals(";")) {
                if (!current.toString().isBlank()) {
                    out.add(current.toString().strip());
                }
                current.setLength(0);
            } else if (!line.stripLeading().startsWith("--")) {
                current.append(line).append('\n');
            }
        }
        if (!current.toString().isBlank()) {
            out.add(current.toString().strip());
        }
        return out;
    }

    /**
     * rocprof-sys's four summary views share one shape: per group, the calls, total, sum of
     * squares, average, share of the total, minimum, maximum, sample variance and standard
     * deviation of the durations in nanoseconds. {@code {{summary:COLUMN:"VIEW"}}} is that query
     * over {@code VIEW} grouped by {@code COLUMN} (allocations are named after their type with a
     * {@code MEMORY_ALLOCATION_} prefix).
     */
    private static String expandSummaries(String text) {
        Matcher m = SUMMARY.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String column = m.group(1);
            String view = m.group(2);
            String name = column.equals("type") ? "'MEMORY_ALLOCATION_' || g.name" : "g.name";
            String sql = "WITH d AS (SELECT " + column + " AS name, duration FROM \"" + view + "\"),\n"
                    + "     a AS (SELECT name, AVG(duration) AS avg_duration FROM d GROUP BY name),\n"
                    + "     g AS (SELECT d.name AS name, COUNT(*) AS calls, SUM(d.duration) AS total_duration,\n"
                    + "                  SUM(CAST(d.duration AS REAL) * CAST(d.duration AS REAL)) AS sqr_duration,\n"
                    + "                  a.avg_duration AS average_duration, MIN(d.duration) AS min_duration,\n"
                    + "                  MAX(d.duration) AS max_duration,\n"
                    + "                  SUM((d.duration - a.avg_duration) * (d.duration - a.avg_duration))\n"
                    + "                      / (COUNT(*) - 1) AS variance_duration\n"
                    + "             FROM d JOIN a ON a.name = d.name GROUP BY d.name),\n"
                    + "     t AS (SELECT SUM(total_duration) AS grand_total FROM g)\n"
                    + "SELECT " + name + " AS name, g.calls, g.total_duration AS \"DURATION (nsec)\",\n"
                    + "       g.sqr_duration AS \"SQR (nsec)\", g.average_duration AS \"AVERAGE (nsec)\",\n"
                    + "       CAST(g.total_duration AS REAL) / t.grand_total * 100 AS \"PERCENT (INC)\",\n"
                    + "       g.min_duration AS \"MIN (nsec)\", g.max_duration AS \"MAX (nsec)\",\n"
                    + "       g.variance_duration AS \"VARIANCE\", SQRT(g.variance_duration) AS \"STD_DEV\"\n"
                    + "  FROM g CROSS JOIN t";
            m.appendReplacement(out, Matcher.quoteReplacement(sql));
        }
        m.appendTail(out);
        return out.toString();
    }
}
