package org.rocprofsys.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rocprofsys.tracetest.DecodedTrace;

/** Upstream's python validations (validate-timemory-json.py, validate-perfetto-proto.py) as lists. */
final class PythonProfiles {
    private PythonProfiles() {}

    /** python-builtin: labels, counts and depths of upstream's validation (inventory §9.3). */
    static final List<String> BUILTIN = builtin();

    /** python-source (python and user categories). */
    static final List<String> SOURCE = expected(
            List.of("main_loop", "run", "fib", "fib", "fib", "fib", "fib", "inefficient", "_sum"),
            List.of("5", "3", "3", "6", "12", "18", "6", "3", "3"),
            List.of("0", "1", "2", "3", "4", "5", "6", "2", "3"));

    private static List<String> builtin() {
        List<String> labels = new ArrayList<>();
        labels.add("[run][builtin.py:28]");
        labels.addAll(Collections.nCopies(10, "[fib][builtin.py:10]"));
        labels.add("[inefficient][builtin.py:14]");
        return expected(
                labels,
                List.of("5", "5", "10", "20", "40", "80", "160", "260", "220", "80", "10", "5"),
                List.of("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "1"));
    }

    /** "label c<count> d<depth>" of each entry of ranks[0].graph, in order (validate-timemory-json). */
    static List<String> timemory(Path json) throws Exception {
        List<String> out = new ArrayList<>();
        for (JsonNode e : ProfileGraph.graph(json, "trip_count")) {
            out.add(ProfileGraph.label(e) + " c" + e.get("entry").get("laps").asLong() + " d"
                    + e.get("depth").asLong());
        }
        return out;
    }

    /** "label c<count> d<depth>" per (name, depth) of the given categories' slices, first-seen order. */
    static List<String> perfetto(DecodedTrace trace, Set<String> categories) {
        Map<String, Map<Integer, Integer>> counts = new LinkedHashMap<>();
        for (DecodedTrace.Slice s : trace.slices) {
            if (!s.instant && categories.contains(s.category)) {
                counts.computeIfAbsent(s.name, k -> new LinkedHashMap<>()).merge(s.depth, 1, Integer::sum);
            }
        }
        List<String> out = new ArrayList<>();
        counts.forEach((name, byDepth) -> byDepth.forEach((d, c) -> out.add(name + " c" + c + " d" + d)));
        return out;
    }

    static List<String> expected(List<String> labels, List<String> counts, List<String> depths) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < labels.size(); i++) {
            out.add(labels.get(i) + " c" + counts.get(i) + " d" + depths.get(i));
        }
        return out;
    }
}
