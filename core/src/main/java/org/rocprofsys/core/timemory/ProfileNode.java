package org.rocprofsys.core.timemory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One entry of a thread's call graph: a call path in a tree profile, a name in a flat profile,
 * one call in a timeline profile.
 *
 * <p>{@code depth} is timemory's insertion depth relative to the thread's graph head (0): 1 for
 * a region opened with nothing else open, 1 for every entry of a flat profile. Children keep the
 * order in which they were first entered.
 */
final class ProfileNode {
    final String name;
    final ProfileNode parent;
    final int depth;
    /** The thread's timeline counter at insertion (timeline profiles), 0 otherwise. */
    final long timelineId;

    final Measure measure;
    private Map<String, ProfileNode> byName;
    private ProfileNode lastChild;
    private List<ProfileNode> ordered;

    ProfileNode(String name, ProfileNode parent, int depth, long timelineId, int components) {
        this.name = name;
        this.parent = parent;
        this.depth = depth;
        this.timelineId = timelineId;
        this.measure = new Measure(components);
    }

    /** The child called {@code name}, or null (tree profiles). */
    ProfileNode find(String name) {
        ProfileNode last = lastChild;
        if (last != null && (last.name == name || last.name.equals(name))) {
            return last;
        }
        if (byName == null) {
            return null;
        }
        ProfileNode c = byName.get(name);
        if (c != null) {
            lastChild = c;
        }
        return c;
    }

    /** A new child called {@code name} (tree profiles; {@link #find} gave null). */
    ProfileNode add(String name, int components) {
        if (byName == null) {
            byName = new LinkedHashMap<>(4);
        }
        ProfileNode c = new ProfileNode(name, this, depth + 1, 0, components);
        byName.put(name, c);
        lastChild = c;
        return c;
    }

    /** A new child for every call (timeline profiles). */
    ProfileNode newChild(String name, long timelineId, int components) {
        if (ordered == null) {
            ordered = new ArrayList<>(2);
        }
        ProfileNode c = new ProfileNode(name, this, depth + 1, timelineId, components);
        ordered.add(c);
        return c;
    }

    List<ProfileNode> children() {
        if (byName != null) {
            return new ArrayList<>(byName.values());
        }
        return ordered == null ? Collections.emptyList() : ordered;
    }
}
