package org.rocprofsys.core.timemory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.rocprofsys.core.calltree.Measure;
import org.rocprofsys.core.timemory.ProcessReport.GraphNode;
import org.rocprofsys.core.timemory.ProcessReport.Row;

/**
 * {@code <component>.json} as timemory's {@code print::print_json} writes it (compact, one line):
 *
 * <pre>
 * {"timemory":{"wall_clock":{"properties":{...},"type":..,"description":..,"unit_value":..,
 *   "unit_repr":..,"thread_scope_only":false,"thread_count":N,"mpi_size":1,"upcxx_size":1,
 *   "process_count":1,"num_ranks":1,"concurrency":N,
 *   "ranks":[{"rank":0,"graph_size":M,"graph":[{"hash","prefix","depth","entry","stats","rolling_hash"},...]}],
 *   "graph":[[{"node":{"hash":0,"prefix":"unknown-hash=0",...},"children":[...]}]]}}}
 * </pre>
 *
 * {@code ranks} is the flat result list (JSON_OUTPUT), {@code graph} the hierarchical tree
 * (TREE_OUTPUT) with inclusive and exclusive values, whose siblings of equal hash (e.g. the same
 * region on several threads) are merged: values and statistics summed, lap count of the first
 * kept, thread ids united ({@code finalize::merge} of {@code basic_tree}).
 */
final class JsonReport {
    private JsonReport() {}

    static String render(ProcessReport report, Component c, boolean ranks, boolean tree) {
        return render(report, c, null, ranks, tree);
    }

    /** With {@code label} (when not null) as the metric's key, id and type (the sampled profiles' names). */
    static String render(ProcessReport report, Component c, String label, boolean ranks, boolean tree) {
        TimemoryOptions.Format f = report.options().format(c);
        Values ci = Values.of(report, c);
        JsonOut j = new JsonOut();
        j.beginObject()
                .name("timemory")
                .beginObject()
                .name(label != null ? label : c.identifier())
                .beginObject();
        j.name("properties").beginObject("properties");
        j.name("value").value(c.enumValue());
        j.name("enum").value(c.enumString());
        j.name("id").value(label != null ? label : c.label());
        j.name("ids").beginArray();
        for (String id : c.ids()) {
            j.value(id);
        }
        j.endArray();
        j.endObject();
        if (ci.array()) {
            // timemory's label_array, description_array, unit_array and display_unit_array
            j.name("type");
            strings(j, ci.names);
            j.name("description");
            strings(j, ci.names);
            j.name("unit_value").beginArray();
            for (int k = 0; k < ci.slots.length; k++) {
                j.value(f.unit());
            }
            j.endArray();
            j.name("unit_repr");
            strings(j, java.util.Collections.nCopies(ci.slots.length, f.unitRepr()));
        } else {
            j.name("type").value(label != null ? label : c.label());
            j.name("description").value(c.description());
            j.name("unit_value").value(f.unit());
            j.name("unit_repr").value(f.unitRepr());
        }
        j.name("thread_scope_only").value(false);
        j.name("thread_count").value(report.threadCount());
        j.name("mpi_size").value(1);
        j.name("upcxx_size").value(1);
        j.name("process_count").value(1);
        j.name("num_ranks").value(1);
        j.name("concurrency").value(report.threadCount());
        if (ranks) {
            j.name("ranks").beginArray().beginObject();
            j.name("rank").value(0);
            j.name("graph_size").value(report.rows().size());
            j.name("graph").beginArray();
            for (Row r : report.rows()) {
                j.beginObject();
                j.name("hash").unsigned(r.hash());
                j.name("prefix").value(r.prefix());
                j.name("depth").value(r.depth());
                j.name("entry");
                entry(j, r.measure(), c, ci, f);
                j.name("stats");
                stats(j, r.measure(), c, ci);
                j.name("rolling_hash").unsigned(r.rollingHash());
                j.endObject();
            }
            j.endArray();
            j.endObject().endArray();
        }
        if (tree) {
            TreeNode root = merge(build(report.root(), report.pid()));
            j.name("graph").beginArray().beginArray();
            tree(j, root, c, ci, f);
            j.endArray().endArray();
        }
        j.endObject().endObject().endObject();
        return j + "\n";
    }

    /**
     * Which slots of the entries a component's JSON shows: one, or papi_array's counters (those
     * read, {@link ProcessReport#counterColumns}) with their names.
     */
    record Values(int[] slots, List<String> names, boolean array) {
        static Values of(ProcessReport report, Component c) {
            int first = report.slot(c);
            if (c != Component.PAPI_ARRAY) {
                return new Values(new int[] {first}, List.of(c.label()), false);
            }
            int[] slots = new int[report.counterColumns().length];
            List<String> names = new ArrayList<>();
            for (int k = 0; k < slots.length; k++) {
                slots[k] = first + report.counterColumns()[k];
                names.add(report.options().counters().get(report.counterColumns()[k]));
            }
            return new Values(slots, names, true);
        }

        int slot() {
            return slots[0];
        }
    }

    private static void strings(JsonOut j, List<String> values) {
        j.beginArray();
        for (String v : values) {
            j.value(v);
        }
        j.endArray();
    }

    /**
     * The component object: laps, value, accum (when the component has one), repr_data,
     * repr_display. A utilisation's value and accum are its pair (CPU ns, wall ns); papi_array
     * writes its serialization: laps, repr_data, value, accum, display (arrays, one element per
     * counter) and events (the counters' PAPI names; timemory writes PAPI's event codes, which
     * mean nothing outside the profiled process).
     */
    /** {@code "<name>": {"entry": ..., "stats": ...}} of one measure (inclusive or exclusive). */
    private static void entryAndStats(
            JsonOut j, String name, Measure m, Component c, Values ci, TimemoryOptions.Format f) {
        j.name(name).beginObject();
        j.name("entry");
        entry(j, m, c, ci, f);
        j.name("stats");
        stats(j, m, c, ci);
        j.endObject();
    }

    private static void entry(JsonOut j, Measure m, Component c, Values ci, TimemoryOptions.Format f) {
        j.beginObject("entry");
        j.name("laps").value(m.laps());
        if (ci.array()) {
            j.name("repr_data");
            doubles(j, m, c, ci, f);
            j.name("value");
            longs(j, m, ci);
            j.name("accum");
            longs(j, m, ci);
            j.name("display");
            doubles(j, m, c, ci, f);
            j.name("events");
            strings(j, ci.names);
            j.endObject();
            return;
        }
        int slot = ci.slot();
        if (c.utilisation()) {
            j.name("value");
            pair(j, m.raw(slot), m.wallNs());
            j.name("accum");
            pair(j, m.raw(slot), m.wallNs());
        } else {
            j.name("value").value(m.raw(slot));
            if (c.hasAccum()) {
                j.name("accum").value(m.raw(slot));
            }
        }
        if (c.integral()) {
            j.name("repr_data").value(m.raw(slot));
            j.name("repr_display").value(m.raw(slot));
        } else {
            double v = c.value(m, slot, f.unit());
            j.name("repr_data").value(v);
            j.name("repr_display").value(v);
        }
        j.endObject();
    }

    /** std::pair as cereal writes it. */
    private static void pair(JsonOut j, long first, long second) {
        j.beginObject();
        j.name("first").value(first);
        j.name("second").value(second);
        j.endObject();
    }

    private static void longs(JsonOut j, Measure m, Values ci) {
        j.beginArray();
        for (int s : ci.slots) {
            j.value(m.raw(s));
        }
        j.endArray();
    }

    private static void doubles(JsonOut j, Measure m, Component c, Values ci, TimemoryOptions.Format f) {
        j.beginArray();
        for (int s : ci.slots) {
            j.value(c.value(m, s, f.unit()));
        }
        j.endArray();
    }

    /**
     * tim::statistics: sum, count, min, max, sqr, mean, stddev; empty for trip_count; for
     * papi_array ({@code statistics<std::vector<double>>}) each but count an array.
     */
    private static void stats(JsonOut j, Measure m, Component c, Values ci) {
        j.beginObject("stats");
        if (c.reportsStatistics()) {
            stat(j, "sum", ci, s -> m.statistic(Measure.Statistic.SUM, s));
            j.name("count").value(m.count());
            stat(j, "min", ci, s -> m.statistic(Measure.Statistic.MIN, s));
            stat(j, "max", ci, s -> m.statistic(Measure.Statistic.MAX, s));
            stat(j, "sqr", ci, s -> m.statistic(Measure.Statistic.SQR, s));
            stat(j, "mean", ci, m::mean);
            stat(j, "stddev", ci, m::stddev);
        }
        j.endObject();
    }

    private static void stat(JsonOut j, String name, Values ci, java.util.function.IntToDoubleFunction value) {
        j.name(name);
        if (!ci.array()) {
            j.value(value.applyAsDouble(ci.slot()));
            return;
        }
        j.beginArray();
        for (int s : ci.slots) {
            j.value(value.applyAsDouble(s));
        }
        j.endArray();
    }

    private static void tree(JsonOut j, TreeNode t, Component c, Values ci, TimemoryOptions.Format f) {
        j.beginObject("basic_tree");
        j.name("node").beginObject();
        j.name("hash").unsigned(t.hash);
        j.name("prefix").value(t.name == null ? "unknown-hash=" + Long.toUnsignedString(t.hash) : t.name);
        j.name("tid").beginArray();
        for (int tid : t.tids) {
            j.value(tid);
        }
        j.endArray();
        j.name("pid").beginArray().value(t.pid).endArray();
        j.name("depth").value(t.depth);
        j.name("is_dummy").value(false);
        entryAndStats(j, "inclusive", t.inclusive, c, ci, f);
        entryAndStats(j, "exclusive", t.exclusive, c, ci, f);
        j.endObject();
        j.name("children").beginArray();
        for (TreeNode ch : t.children) {
            tree(j, ch, c, ci, f);
        }
        j.endArray();
        j.endObject();
    }

    /** A node of timemory's {@code basic_tree<node::tree>}. */
    static final class TreeNode {
        final long hash;
        final String name;
        final int depth;
        final int pid;
        final TreeSet<Integer> tids = new TreeSet<>();
        final Measure inclusive;
        final Measure exclusive;
        List<TreeNode> children = new ArrayList<>();

        TreeNode(GraphNode g, int pid) {
            this.hash = g.hash;
            this.name = g.name;
            this.depth = g.depth;
            this.pid = pid;
            this.tids.add(g.tid);
            this.inclusive = g.measure.copy();
            this.exclusive = g.measure.copy();
        }
    }

    /** basic_tree(graph, node): exclusive = inclusive minus each child. */
    static TreeNode build(GraphNode g, int pid) {
        TreeNode t = new TreeNode(g, pid);
        for (GraphNode c : g.children) {
            t.exclusive.subtractChild(c.measure);
            t.children.add(build(c, pid));
        }
        return t;
    }

    /** merge::operator()(basic_tree): merge below first, then fold siblings with equal hashes. */
    static TreeNode merge(TreeNode t) {
        if (t.children.isEmpty()) {
            return t;
        }
        List<TreeNode> merged = new ArrayList<>(t.children.size());
        for (TreeNode c : t.children) {
            merged.add(merge(c));
        }
        List<TreeNode> out = new ArrayList<>(merged.size());
        for (TreeNode c : merged) {
            boolean found = false;
            for (TreeNode o : out) {
                if (o.hash == c.hash) {
                    found = true;
                    plus(o, c);
                }
            }
            if (!found) {
                out.add(c);
            }
        }
        t.children = out;
        return t;
    }

    /** basic_tree::operator+=. */
    private static void plus(TreeNode a, TreeNode b) {
        if (a.hash == b.hash) {
            a.inclusive.addValuesAndStats(b.inclusive);
            a.exclusive.addValuesAndStats(b.exclusive);
            a.tids.addAll(b.tids);
        }
        Set<Integer> found = new HashSet<>();
        int n = Math.min(a.children.size(), b.children.size());
        for (int i = 0; i < n; i++) {
            if (a.children.get(i).hash == b.children.get(i).hash) {
                found.add(i);
                plus(a.children.get(i), b.children.get(i));
            }
        }
        for (int i = 0; i < b.children.size(); i++) {
            if (found.contains(i)) {
                continue;
            }
            for (int k = 0; k < a.children.size(); k++) {
                if (a.children.get(k).hash == b.children.get(i).hash) {
                    found.add(i);
                    plus(a.children.get(k), b.children.get(i));
                }
            }
        }
        for (int i = 0; i < b.children.size(); i++) {
            if (!found.contains(i)) {
                a.children.add(b.children.get(i));
            }
        }
    }
}
