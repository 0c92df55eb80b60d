package org.rocprofsys.core.gpu.stats;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A stats table as JSON: {@code {"<table name>": [{"Name": ..., "Calls": ..., "TotalDurationNs":
 * ..., "AverageNs": ..., "Percentage": ..., "MinNs": ..., "MaxNs": ..., "StdDev": ...}, ...]}},
 * the rows in the CSV's order, numbers as numbers.
 */
public final class StatsJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private StatsJson() {}

    public static String render(StatsTable table) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode rows = root.putArray(table.name());
        for (StatsTable.Row r : table.rows()) {
            rows.addObject()
                    .put("Name", r.name())
                    .put("Calls", r.calls())
                    .put("TotalDurationNs", r.totalNs())
                    .put("AverageNs", r.averageNs())
                    .put("Percentage", r.percentage())
                    .put("MinNs", r.minNs())
                    .put("MaxNs", r.maxNs())
                    .put("StdDev", r.stddev());
        }
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
