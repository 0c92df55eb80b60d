package org.rocprofsys.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Reading a timemory profile's {@code ranks[0].graph} in end-to-end tests. */
final class ProfileGraph {
    private ProfileGraph() {}

    /** The entries of {@code <metric>.json}'s first rank, in file order. */
    static List<JsonNode> graph(Path json, String metric) throws IOException {
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        List<JsonNode> out = new ArrayList<>();
        root.get("timemory").get(metric).get("ranks").get(0).get("graph").forEach(out::add);
        return out;
    }

    /** An entry's label without the tree prefix ({@code |0>>> |_}). */
    static String label(JsonNode e) {
        String prefix = e.get("prefix").asText();
        return prefix.substring(prefix.indexOf(">>> ") + 4).replaceFirst("^ *\\|_", "");
    }

    /** An entry's laps (for a sampled profile, the samples holding it). */
    static long laps(JsonNode e) {
        return e.get("entry").get("laps").asLong();
    }

    /** The summed accumulated value of the entries named {@code name} at {@code depth}. */
    static double sum(List<JsonNode> graph, String name, int depth) {
        return graph.stream()
                .filter(e -> label(e).equals(name) && e.get("depth").asInt() == depth)
                .mapToDouble(e -> e.get("entry").get("accum").asDouble())
                .sum();
    }

    /** depth:label=value of every entry, for assertion messages. */
    static String shown(List<JsonNode> g) {
        return g.stream()
                .map(e -> e.get("depth").asInt() + ":" + label(e) + "="
                        + e.get("entry").get("accum"))
                .toList()
                .toString();
    }

    /** Leaf (self) samples per label of a sampling profile's graph: each entry's laps less its children's. */
    static Map<String, Long> leaves(List<JsonNode> graph) {
        Map<String, Long> out = new HashMap<>();
        for (int i = 0; i < graph.size(); i++) {
            int depth = graph.get(i).get("depth").asInt();
            long self = laps(graph.get(i));
            for (int j = i + 1; j < graph.size() && graph.get(j).get("depth").asInt() > depth; j++) {
                if (graph.get(j).get("depth").asInt() == depth + 1) {
                    self -= laps(graph.get(j));
                }
            }
            out.merge(label(graph.get(i)), self, Long::sum);
        }
        return out;
    }
}
