package org.rocprofsys.unifiedmemory.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.Map;
import org.rocprofsys.core.gpu.MigrationDirection;
import org.rocprofsys.core.gpu.MigrationTrigger;

/**
 * {@code unified_memory.json} in seed 000's schema: every direction of every device (zeros where
 * nothing moved), the page faults, whether XNACK was on, and every trigger.
 */
public final class UnifiedMemoryJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);

    private UnifiedMemoryJson() {}

    /** @param xnackEnabled whether the target ran with XNACK on ({@code HSA_XNACK=1}) */
    public static String render(UnifiedMemoryReport report, boolean xnackEnabled) {
        JsonNodeFactory json = JsonNodeFactory.withExactBigDecimals(true);
        ObjectNode root = json.objectNode();
        var devices = root.putArray("devices");
        for (Map.Entry<Integer, Map<MigrationDirection, MigrationTotals>> device :
                report.devices().entrySet()) {
            ObjectNode d = devices.addObject()
                    .put("device_id", device.getKey())
                    .put("device_name", report.deviceName(device.getKey()));
            ObjectNode migrations = d.putObject("migrations");
            for (MigrationDirection direction : MigrationDirection.values()) {
                MigrationTotals t = report.totals(device.getKey(), direction);
                migrations
                        .putObject(direction.key())
                        .put("count", t.count())
                        .put("avg_size_bytes", plain(t.averageBytes()))
                        .put("min_size_bytes", t.minBytes())
                        .put("max_size_bytes", t.maxBytes())
                        .put("total_size_bytes", t.totalBytes())
                        .put("total_time_ns", t.totalTimeNs())
                        .put("migration_throughput_gbps", plain(t.throughputGbPerSecond()));
            }
        }
        ObjectNode summary = root.putObject("summary")
                .put("total_page_faults", report.pageFaults())
                .put("xnack_enabled", xnackEnabled);
        ObjectNode triggers = summary.putObject("migration_triggers");
        for (MigrationTrigger trigger : MigrationTrigger.values()) {
            triggers.put(trigger.key(), report.triggers(trigger));
        }
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render unified_memory.json", e);
        }
    }

    /** 2031616.00 as 2031616, 12024035.55 as is, 0.00 as 0. */
    private static BigDecimal plain(BigDecimal value) {
        BigDecimal stripped = value.stripTrailingZeros();
        return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
    }
}
