package org.rocprofsys.core.timemory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.rocprofsys.core.calltree.CallNode;
import org.rocprofsys.core.calltree.Measure;
import org.rocprofsys.core.calltree.ProcessCalls;
import org.rocprofsys.core.calltree.ThreadCalls;

/**
 * One process's profile as timemory finalizes it: the worker graphs merged into the main graph
 * at their bookmarks ({@code finalize::merge}), the graph flattened depth-first into the result
 * list with prefixes, depths and rolling hashes ({@code finalize::get}), optionally collapsed
 * over threads, with each entry's "% SELF".
 *
 * @param counterColumns the CPU counters (indices into the options' counters) papi_array shows:
 *                       those some region of the process read (a counter the run could not open
 *                       is recorded absent everywhere and, as in timemory's event set, left out)
 */
record ProcessReport(
        int pid,
        int threadCount,
        ProcessReport.GraphNode root,
        List<ProcessReport.Row> rows,
        ValueSlots slots,
        int[] counterColumns,
        TimemoryOptions options) {
    /** A node of the merged graph; the root is timemory's graph head. */
    static final class GraphNode {
        final String name;
        final int depth;
        final long hash;
        final int tid;
        final Measure measure;
        final List<GraphNode> children = new ArrayList<>();
        GraphNode parent;
        /** This hash plus the hashes of the ancestors below the head (set when flattened). */
        long rolling;

        GraphNode(String name, int depth, long hash, int tid, Measure measure) {
            this.name = name;
            this.depth = depth;
            this.hash = hash;
            this.tid = tid;
            this.measure = measure;
        }

        void add(GraphNode c) {
            c.parent = this;
            children.add(c);
        }
    }

    /**
     * One entry of the result list: a row of the text table, an element of ranks[0].graph.
     *
     * @param self % SELF per slot ({@link ValueSlots}), filled once the list is complete
     */
    record Row(String prefix, int depth, long hash, long rollingHash, int tid, Measure measure, double[] self) {}

    boolean isEmpty() {
        return rows.isEmpty();
    }

    int componentIndex(Component c) {
        return options.components().indexOf(c);
    }

    /** The slot of {@code c}'s value (for papi_array, of its first counter). */
    int slot(Component c) {
        return slots.first(componentIndex(c));
    }

    /** Whether {@code c} has anything to write (papi_array: at least one counter read). */
    boolean writes(Component c) {
        return c != Component.PAPI_ARRAY || counterColumns.length > 0;
    }

    static ProcessReport build(ProcessCalls p, TimemoryOptions options) {
        return build(p, options, OptionalInt.empty());
    }

    /**
     * @param rank the process's MPI rank, when it has one: labels then start {@code |<rank>|<tid>>>>}
     *             as upstream's do for ranks whose processes are not collapsed (inventory 8.1)
     */
    static ProcessReport build(ProcessCalls p, TimemoryOptions options, OptionalInt rank) {
        Builder b = new Builder(p, options, rank.isPresent() ? "|" + rank.getAsInt() : "");
        return b.build();
    }

    private static final class Builder {
        private final ProcessCalls p;
        private final TimemoryOptions options;
        private final ValueSlots slots;
        private final int n;
        private final Map<String, Long> nameHash = new HashMap<>();
        private Map<ThreadCalls, Integer> seq;

        private final String rankPrefix;

        Builder(ProcessCalls p, TimemoryOptions options, String rankPrefix) {
            this.p = p;
            this.options = options;
            this.rankPrefix = rankPrefix;
            this.slots = new ValueSlots(options);
            this.n = slots.total();
        }

        ProcessReport build() {
            seq = p.sequences();
            int mainSeq = p.main() == null ? 0 : seq.get(p.main());
            GraphNode root = new GraphNode(null, 0, 0L, mainSeq, new Measure(n));
            if (p.main() != null) {
                attach(root, p.main());
            }
            for (ThreadCalls w : p.workersInMergeOrder(seq)) {
                GraphNode target = root;
                if (!options.profile().flat() && w.bookmark() != null) {
                    CallNode b = w.bookmark();
                    target = find(root, hash(b.name(), b.depth(), b.timelineId()), b.depth());
                    if (target == null) {
                        continue; // its bookmark lies below MAX_DEPTH: nothing of it is recorded
                    }
                }
                attach(target, w);
            }
            List<Row> rows = flatten(root);
            if (options.profile().collapseThreads()) {
                rows = collapse(rows);
            }
            computeSelf(rows);
            int[] counterColumns = p.countersRead().stream()
                    .filter(k -> k < options.counters().size())
                    .toArray();
            return new ProcessReport(p.pid(), p.threads().size(), root, rows, slots, counterColumns, options);
        }

        /** Hangs a thread's entries below {@code target} (depth continues from the target). */
        private void attach(GraphNode target, ThreadCalls t) {
            int tid = seq.get(t);
            List<CallNode> top = t.head().children();
            if (options.profile().flat()) {
                // timemory's insert_flat puts the thread's first entry under the head and every
                // later one under that first entry, all with depth 1
                GraphNode first = null;
                for (CallNode e : top) {
                    GraphNode g = new GraphNode(e.name(), 1, hash(e.name(), 1, e.timelineId()), tid, e.measure());
                    if (first == null) {
                        first = g;
                        target.add(g);
                    } else {
                        first.add(g);
                    }
                }
                return;
            }
            for (CallNode e : top) {
                copy(target, e, tid);
            }
        }

        /** Copies a thread's subtree below {@code parent}, dropping entries at depth >= MAX_DEPTH. */
        private void copy(GraphNode parent, CallNode e, int tid) {
            record Item(GraphNode parent, CallNode e) {}
            ArrayList<Item> stack = new ArrayList<>();
            stack.add(new Item(parent, e));
            while (!stack.isEmpty()) {
                Item it = stack.remove(stack.size() - 1);
                int depth = it.parent.depth + 1;
                if (depth - 1 >= options.profile().maxDepth()) {
                    continue;
                }
                CallNode p = it.e;
                GraphNode g = new GraphNode(p.name(), depth, hash(p.name(), depth, p.timelineId()), tid, p.measure());
                it.parent.add(g);
                List<CallNode> ch = p.children();
                for (int i = ch.size() - 1; i >= 0; i--) {
                    stack.add(new Item(g, ch.get(i)));
                }
            }
        }

        /** The entry hash: {@code get_hash_id(id, depth)}, once more with the timeline counter. */
        private long hash(String name, int depth, long timelineId) {
            long id = nameHash.computeIfAbsent(name, StdHash::of);
            long h = StdHash.combine(id, options.profile().flat() ? 1 : depth);
            if (options.profile().timeline()) {
                h = StdHash.combine(h, timelineId);
            }
            return h;
        }

        /** graph_data::find: the first node in depth-first order with this hash and depth. */
        private static GraphNode find(GraphNode from, long hash, int depth) {
            ArrayList<GraphNode> stack = new ArrayList<>();
            stack.add(from);
            while (!stack.isEmpty()) {
                GraphNode g = stack.remove(stack.size() - 1);
                if (g.hash == hash && g.depth == depth) {
                    return g;
                }
                for (int i = g.children.size() - 1; i >= 0; i--) {
                    stack.add(g.children.get(i));
                }
            }
            return null;
        }

        private List<Row> flatten(GraphNode root) {
            List<Row> out = new ArrayList<>();
            int width = 1;
            int count = p.threads().size();
            if (count > 9) {
                width = Math.max(width, (int) Math.log10(count) + 1);
            }
            ArrayList<GraphNode> stack = new ArrayList<>();
            for (int i = root.children.size() - 1; i >= 0; i--) {
                stack.add(root.children.get(i));
            }
            while (!stack.isEmpty()) {
                GraphNode g = stack.remove(stack.size() - 1);
                // parents come first in depth-first order, so their rolling hash is known
                long rolling = g.hash + (g.parent != null && g.parent.depth > 0 ? g.parent.rolling : 0);
                g.rolling = rolling;
                int depth = g.depth - 1;
                StringBuilder prefix = new StringBuilder();
                if (options.profile().collapseThreads()) {
                    prefix.append(">>> ");
                } else {
                    String t = Integer.toString(g.tid);
                    prefix.append(rankPrefix)
                            .append('|')
                            .append("0".repeat(Math.max(0, width - t.length())))
                            .append(t)
                            .append(">>> ");
                }
                if (depth > 0) {
                    prefix.append("  ".repeat(depth - 1)).append("|_");
                }
                prefix.append(g.name);
                out.add(new Row(
                        prefix.toString(),
                        depth,
                        g.hash,
                        rolling,
                        g.tid,
                        options.profile().collapseThreads() ? g.measure.copy() : g.measure,
                        new double[n]));
                for (int i = g.children.size() - 1; i >= 0; i--) {
                    stack.add(g.children.get(i));
                }
            }
            return out;
        }

        /** finalize::merge of result lists: same depth, hash, rolling hash and prefix become one. */
        private static List<Row> collapse(List<Row> rows) {
            record Key(int depth, long hash, long rolling, String prefix) {}
            LinkedHashMap<Key, Row> out = new LinkedHashMap<>();
            for (Row r : rows) {
                Key k = new Key(r.depth(), r.hash(), r.rollingHash(), r.prefix());
                Row have = out.get(k);
                if (have == null) {
                    out.put(k, r);
                } else {
                    have.measure().addAll(r.measure());
                }
            }
            return new ArrayList<>(out.values());
        }

        /**
         * finalize::print's "% SELF": 100 * (1 - sum of the entries one level deeper that follow,
         * up to the next entry at the same depth, / value), at least 0; 0 for the deepest level
         * and for non-positive values.
         */
        private void computeSelf(List<Row> rows) {
            int maxDepth = 0;
            for (Row r : rows) {
                maxDepth = Math.max(maxDepth, r.depth());
            }
            // per slot: the component it belongs to and its display unit
            Component[] comps = new Component[n];
            long[] units = new long[n];
            for (int ci = 0; ci < slots.components(); ci++) {
                for (int k = 0; k < slots.count(ci); k++) {
                    comps[slots.first(ci) + k] = slots.component(ci);
                    units[slots.first(ci) + k] =
                            options.format(slots.component(ci)).unit();
                }
            }
            for (int idx = 0; idx < rows.size(); idx++) {
                Row r = rows.get(idx);
                double[] excl = new double[n];
                if (r.depth() < maxDepth) {
                    for (int j = idx + 1; j < rows.size(); j++) {
                        Row e = rows.get(j);
                        if (e.depth() == r.depth()) {
                            break;
                        }
                        if (e.depth() == r.depth() + 1) {
                            for (int i = 0; i < n; i++) {
                                excl[i] += comps[i].value(e.measure(), i, units[i]);
                            }
                        }
                    }
                }
                for (int i = 0; i < n; i++) {
                    double v = comps[i].value(r.measure(), i, units[i]);
                    double pd = v > 0 ? (1.0 - excl[i] / v) * 100.0 : 0.0;
                    r.self()[i] = pd < 0 ? 0.0 : pd;
                }
            }
        }
    }
}
