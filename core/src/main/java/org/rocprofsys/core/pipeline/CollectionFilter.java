package org.rocprofsys.core.pipeline;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.rocprofsys.core.event.Mark;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.TraceControl;
import org.rocprofsys.core.event.TraceEvent;

/**
 * Decides which regions are recorded: a region that begins while collection is off (outside the
 * trace windows, or after the program called stop-trace) is dropped together with its end, as
 * upstream does; a region that began while on is kept whole.
 */
final class CollectionFilter implements Consumer<TraceEvent> {
    private final TraceWindows windows;
    private final boolean initiallyEnabled;
    private final Consumer<TraceEvent> downstream;
    private final Map<Integer, ProcessState> processes = new HashMap<>();

    private static final class ProcessState {
        final long startNs;
        boolean enabled;
        final Map<Integer, ThreadState> threads = new HashMap<>();

        ProcessState(long startNs, boolean enabled) {
            this.startNs = startNs;
            this.enabled = enabled;
        }
    }

    private static final class ThreadState {
        boolean enabled = true;
        final ArrayDeque<Boolean> recorded = new ArrayDeque<>();
    }

    CollectionFilter(TraceWindows windows, boolean initiallyEnabled, Consumer<TraceEvent> downstream) {
        this.windows = windows;
        this.initiallyEnabled = initiallyEnabled;
        this.downstream = downstream;
    }

    @Override
    public void accept(TraceEvent e) {
        switch (e) {
            case ProcessStarted p -> {
                processes.put(p.pid(), new ProcessState(p.timestampNs(), initiallyEnabled));
                downstream.accept(e);
            }
            case TraceControl c -> {
                ProcessState p = process(c.pid(), c.timestampNs());
                if (c.processWide()) {
                    p.enabled = c.enable();
                } else {
                    thread(p, c.tid()).enabled = c.enable();
                }
            }
            case RegionBegin b -> {
                ProcessState p = process(b.pid(), b.timestampNs());
                ThreadState t = thread(p, b.tid());
                boolean on = p.enabled && t.enabled && windows.enabledAt(b.timestampNs() - p.startNs);
                t.recorded.push(on);
                if (on) {
                    downstream.accept(e);
                }
            }
            case RegionEnd en -> {
                ThreadState t = thread(process(en.pid(), en.timestampNs()), en.tid());
                // an end without a begin (e.g. a pop inherited across fork) is dropped
                if (!t.recorded.isEmpty() && t.recorded.pop()) {
                    downstream.accept(e);
                }
            }
            case Mark m -> {
                ProcessState p = process(m.pid(), m.timestampNs());
                if (p.enabled && thread(p, m.tid()).enabled && windows.enabledAt(m.timestampNs() - p.startNs)) {
                    downstream.accept(e);
                }
            }
            default -> downstream.accept(e);
        }
    }

    private ProcessState process(int pid, long now) {
        return processes.computeIfAbsent(pid, k -> new ProcessState(now, initiallyEnabled));
    }

    private static ThreadState thread(ProcessState p, int tid) {
        return p.threads.computeIfAbsent(tid, k -> new ThreadState());
    }
}
