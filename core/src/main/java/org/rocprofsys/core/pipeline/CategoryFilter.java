package org.rocprofsys.core.pipeline;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import org.rocprofsys.config.Settings;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.event.Mark;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.ThreadEnded;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.tracker.ThreadTable;

/**
 * ROCPROFSYS_ENABLE_CATEGORIES / ROCPROFSYS_DISABLE_CATEGORIES: events of a category that is not
 * enabled never reach an output, so the trace and every profile lose them alike. A non-empty enable
 * list keeps only its categories; the disable list then removes from what is kept. Regions (an
 * end follows its begin, whatever category the end record names), marks, counter samples (by their
 * series' category) and call-stack samples (categories {@code sampling} and {@code timer_sampling}, from which the sampled profiles
 * are built) are filtered; process and thread lifetimes always pass, as upstream keeps its tracks.
 */
public final class CategoryFilter implements Consumer<TraceEvent> {
    private final Set<Category> dropped;
    private final Consumer<TraceEvent> next;
    /** Per thread (pid, tid), whether each open region was kept, innermost last. */
    private final ThreadTable<RegionFlags> open = new ThreadTable<>();

    private CategoryFilter(Set<Category> dropped, Consumer<TraceEvent> next) {
        this.dropped = dropped;
        this.next = next;
    }

    /** The categories the settings leave out; empty when every category is kept. */
    public static Set<Category> dropped(Settings settings) {
        return dropped(settings.get("ROCPROFSYS_ENABLE_CATEGORIES"), settings.get("ROCPROFSYS_DISABLE_CATEGORIES"));
    }

    static Set<Category> dropped(String enable, String disable) {
        Set<Category> out = EnumSet.noneOf(Category.class);
        Set<String> enabled = labels(enable);
        if (!enabled.isEmpty()) {
            for (Category c : Category.values()) {
                if (c != Category.NONE && !enabled.contains(c.label())) {
                    out.add(c);
                }
            }
        }
        Set<String> disabled = labels(disable);
        for (Category c : Category.values()) {
            if (disabled.contains(c.label())) {
                out.add(c);
            }
        }
        return out;
    }

    private static Set<String> labels(String list) {
        Set<String> out = new java.util.HashSet<>();
        for (String t : list.toLowerCase(Locale.ROOT).split("[ ,;]+")) {
            if (!t.isBlank()) {
                out.add(t.strip());
            }
        }
        return out;
    }

    /** {@code next} itself when nothing is dropped, so a default run has no extra stage. */
    public static Consumer<TraceEvent> of(Set<Category> dropped, Consumer<TraceEvent> next) {
        return dropped.isEmpty() ? next : new CategoryFilter(EnumSet.copyOf(dropped), next);
    }

    @Override
    public void accept(TraceEvent e) {
        if (e instanceof RegionRun r) {
            regions(r);
            return;
        }
        boolean keep = switch (e) {
            case RegionBegin b -> {
                boolean k = !dropped.contains(b.category());
                flags(b.pid(), b.tid()).push(k);
                yield k;
            }
            case RegionEnd end -> {
                RegionFlags stack = open.get(end.pid(), end.tid());
                yield stack == null || stack.isEmpty() ? !dropped.contains(end.category()) : stack.pop();
            }
            case ThreadStarted t -> {
                open.remove(t.pid(), t.tid());
                yield true;
            }
            case ThreadEnded t -> {
                open.remove(t.pid(), t.tid());
                yield true;
            }
            case Mark m -> !dropped.contains(m.category());
            case CounterSample c -> !dropped.contains(c.track().category());
            case StackSample s ->
                s.kind() == StackSample.Kind.OVERFLOW
                        ? !dropped.contains(Category.SAMPLING) && !dropped.contains(Category.OVERFLOW_SAMPLING)
                        : !dropped.contains(Category.SAMPLING) && !dropped.contains(Category.TIMER_SAMPLING);
            default -> true;
        };
        if (keep) {
            next.accept(e);
        }
    }

    /** A run: each of its regions by the rules above. */
    private void regions(RegionRun r) {
        RegionFlags stack = flags(r.pid(), r.tid());
        int kept = 0;
        for (int i = 0, n = r.size(); i < n; i++) {
            boolean k;
            if (r.isBegin(i)) {
                k = !dropped.contains(r.category(i));
                stack.push(k);
            } else {
                k = stack.isEmpty() ? !dropped.contains(r.category(i)) : stack.pop();
            }
            if (k) {
                r.keep(i, kept++);
            }
        }
        r.truncate(kept);
        if (kept > 0) {
            next.accept(r);
        }
    }

    private RegionFlags flags(int pid, int tid) {
        return open.get(pid, tid, RegionFlags::new);
    }
}
