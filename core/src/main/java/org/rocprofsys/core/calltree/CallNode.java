package org.rocprofsys.core.calltree;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One entry of a thread's call tree ({@link CallTree}): a call path in a tree profile, a name in a
 * flat profile, one call in a timeline profile, with what its calls measured ({@link #measure()}).
 *
 * <p>{@code depth} is timemory's insertion depth relative to the thread's graph head (0): 1 for
 * a region opened with nothing else open, 1 for every entry of a flat profile. Children keep the
 * order in which they were first entered.
 */
public final class CallNode {
    private final String name;
    private final CallNode parent;
    private final int depth;
    /** The thread's timeline counter at insertion (timeline profiles), 0 otherwise. */
    private final long timelineId;

    private final Measure measure;
    private Map<String, CallNode> byName;
    private CallNode lastChild;
    private List<CallNode> ordered;

    CallNode(String name, CallNode parent, int depth, long timelineId, int components) {
        this.name = name;
        this.parent = parent;
        this.depth = depth;
        this.timelineId = timelineId;
        this.measure = new Measure(components);
    }

    /** The region's name. */
    public String name() {
        return name;
    }

    /** The enclosing entry; null for a thread's head. */
    public CallNode parent() {
        return parent;
    }

    /** The insertion depth below the thread's head (0). */
    public int depth() {
        return depth;
    }

    /** The thread's timeline counter at insertion (timeline profiles), 0 otherwise. */
    public long timelineId() {
        return timelineId;
    }

    /** What the entry's calls measured. */
    public Measure measure() {
        return measure;
    }

    /** The child called {@code name}, or null (tree profiles). */
    CallNode find(String name) {
        CallNode last = lastChild;
        if (last != null && (last.name == name || last.name.equals(name))) {
            return last;
        }
        if (byName == null) {
            return null;
        }
        CallNode c = byName.get(name);
        if (c != null) {
            lastChild = c;
        }
        return c;
    }

    /** A new child called {@code name} (tree profiles; {@link #find} gave null). */
    CallNode add(String name, int components) {
        if (byName == null) {
            byName = new LinkedHashMap<>(4);
        }
        CallNode c = new CallNode(name, this, depth + 1, 0, components);
        byName.put(name, c);
        lastChild = c;
        return c;
    }

    /** A new child for every call (timeline profiles). */
    CallNode newChild(String name, long timelineId, int components) {
        if (ordered == null) {
            ordered = new ArrayList<>(2);
        }
        CallNode c = new CallNode(name, this, depth + 1, timelineId, components);
        ordered.add(c);
        return c;
    }

    /** The children in the order they were first entered (a new list for a tree profile). */
    public List<CallNode> children() {
        if (byName != null) {
            return new ArrayList<>(byName.values());
        }
        return ordered == null ? Collections.emptyList() : ordered;
    }
}
