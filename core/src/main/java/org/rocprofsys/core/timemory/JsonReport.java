package org.rocprofsys.core.timemory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
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
        int ci = report.componentIndex(c);
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
        j.name("type").value(label != null ? label : c.label());
        j.name("description").value(c.description());
        j.name("unit_value").value(f.unit());
        j.name("unit_repr").value(f.unitRepr());
        j.name("thread_scope_only").value(false);
        j.name("thread_count").value(report.threadCount);
        j.name("mpi_size").value(1);
        j.name("upcxx_size").value(1);
        j.name("process_count").value(1);
        j.name("num_ranks").value(1);
        j.name("concurrency").value(report.threadCount);
        if (ranks) {
            j.name("ranks").beginArray().beginObject();
            j.name("rank").value(0);
            j.name("graph_size").value(report.rows.size());
            j.name("graph").beginArray();
            for (Row r : report.rows) {
                j.beginObject();
                j.name("hash").unsigned(r.hash);
                j.name("prefix").value(r.prefix);
                j.name("depth").value(r.depth);
                j.name("entry");
                entry(j, r.measure, c, ci, f);
                j.name("stats");
                stats(j, r.measure, c, ci);
                j.name("rolling_hash").unsigned(r.rollingHash);
                j.endObject();
            }
            j.endArray();
            j.endObject().endArray();
        }
        if (tree) {
            TreeNode root = merge(build(report.root, report.pid));
            j.name("graph").beginArray().beginArray();
            tree(j, root, c, ci, f);
            j.endArray().endArray();
        }
        j.endObject().endObject().endObject();
        return j + "\n";
    }

    /** The component object: laps, value, accum (when the component has one), repr_data, repr_display. */
    private static void entry(JsonOut j, Measure m, Component c, int ci, TimemoryOptions.Format f) {
        j.beginObject("entry");
        j.name("laps").value(m.laps);
        j.name("value").value(m.raw[ci]);
        if (c.hasAccum()) {
            j.name("accum").value(m.raw[ci]);
        }
        if (c.integral()) {
            j.name("repr_data").value(m.raw[ci]);
            j.name("repr_display").value(m.raw[ci]);
        } else {
            double v = ProcessReport.value(m, ci, f.unit());
            j.name("repr_data").value(v);
            j.name("repr_display").value(v);
        }
        j.endObject();
    }

    /** tim::statistics: sum, count, min, max, sqr, mean, stddev; empty for trip_count. */
    private static void stats(JsonOut j, Measure m, Component c, int ci) {
        j.beginObject("stats");
        if (c.reportsStatistics()) {
            j.name("sum").value(m.sum[ci]);
            j.name("count").value(m.count);
            j.name("min").value(m.min[ci]);
            j.name("max").value(m.max[ci]);
            j.name("sqr").value(m.sqr[ci]);
            j.name("mean").value(m.mean(ci));
            j.name("stddev").value(m.stddev(ci));
        }
        j.endObject();
    }

    private static void tree(JsonOut j, TreeNode t, Component c, int ci, TimemoryOptions.Format f) {
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
        j.name("inclusive").beginObject();
        j.name("entry");
        entry(j, t.inclusive, c, ci, f);
        j.name("stats");
        stats(j, t.inclusive, c, ci);
        j.endObject();
        j.name("exclusive").beginObject();
        j.name("entry");
        entry(j, t.exclusive, c, ci, f);
        j.name("stats");
        stats(j, t.exclusive, c, ci);
        j.endObject();
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
