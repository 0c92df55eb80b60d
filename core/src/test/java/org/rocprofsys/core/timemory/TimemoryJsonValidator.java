package org.rocprofsys.core.timemory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A Java port of upstream's {@code tests/validate-timemory-json.py} (inventory §9.2): zips
 * {@code data["timemory"][metric]["ranks"][0]["graph"]} in order with the expected labels,
 * counts and depths; the expected prefix is the label at depth 0, else
 * {@code "  " * (depth - 1) + "|_" + label}; each entry's prefix loses everything up to and
 * including ">>> " (the script's {@code prefix[find(">>>") + 4:]}, which drops the first three
 * characters when there is no ">>>"); prefix, {@code entry.laps} and depth must match exactly.
 * Extra entries on either side are ignored, as zip ignores them.
 */
public final class TimemoryJsonValidator {
    private TimemoryJsonValidator() {}

    /** The script's outcome: {@code "<file> validated"} or its RuntimeError message. */
    public record Result(boolean ok, String message) {}

    public static Result validate(
            Path file, String metric, List<String> labels, List<Integer> counts, List<Integer> depths)
            throws IOException {
        if (labels.size() != counts.size() || labels.size() != depths.size()) {
            throw new IllegalArgumentException("The same number of labels, counts, and depths must be specified");
        }
        JsonNode data = new ObjectMapper().readTree(file.toFile());
        JsonNode graph = data.get("timemory").get(metric).get("ranks").get(0).get("graph");
        List<Object[]> expected = new ArrayList<>();
        for (int i = 0; i < labels.size(); i++) {
            String label = labels.get(i);
            int d = depths.get(i);
            if (d > 0) {
                label = "  ".repeat(d - 1) + "|_" + label;
            }
            expected.add(new Object[] {label, counts.get(i), d});
        }
        Iterator<JsonNode> it = graph.elements();
        for (Object[] e : expected) {
            if (!it.hasNext()) {
                break;
            }
            JsonNode entry = it.next();
            String prefix = entry.get("prefix").asText();
            long depth = entry.get("depth").asLong();
            long count = entry.get("entry").get("laps").asLong();
            int idx = prefix.indexOf(">>>");
            prefix = prefix.substring(Math.min(prefix.length(), idx + 4));
            if (!prefix.equals(e[0])) {
                return new Result(false, "Mismatched prefix: " + prefix + " vs. " + e[0]);
            }
            if (count != (int) e[1]) {
                return new Result(false, "Mismatched count for " + prefix + ": " + count + " vs. " + e[1]);
            }
            if (depth != (int) e[2]) {
                return new Result(false, "Mismatched depth for " + prefix + ": " + depth + " vs. " + e[2]);
            }
        }
        return new Result(true, file + " validated");
    }
}
