package org.rocprofsys.core.gpu.stats;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * A stats table as JSON: {@code {"<table name>": [{"Name": ..., "Calls": ..., "TotalDurationNs":
 * ..., "AverageNs": ..., "Percentage": ..., "MinNs": ..., "MaxNs": ..., "StdDev": ...}, ...]}},
 * the rows in the CSV's order, numbers as numbers.
 */
public final class StatsJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private StatsJson() {}

    public static String render(StatsTable table) {
        return render(
                table.name(),
                table.rows(),
                (r, row) -> row.put("Name", r.name())
                        .put("Calls", r.calls())
                        .put("TotalDurationNs", r.totalNs())
                        .put("AverageNs", r.averageNs())
                        .put("Percentage", r.percentage())
                        .put("MinNs", r.minNs())
                        .put("MaxNs", r.maxNs())
                        .put("StdDev", r.stddev()));
    }

    /**
     * {@code {"<name>": [...]}} with an object per row of {@code rows}, in order, its fields put by
     * {@code fields}; pretty-printed, with a final newline.
     */
    public static <R> String render(String name, List<R> rows, BiConsumer<R, ObjectNode> fields) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode list = root.putArray(name);
        for (R r : rows) {
            fields.accept(r, list.addObject());
        }
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
