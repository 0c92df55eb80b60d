package org.rocprofsys.core.pipeline;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.rocprofsys.core.event.GpuActivity;
import org.rocprofsys.core.event.Mark;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.TraceControl;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.gpu.GpuApiCall;
import org.rocprofsys.core.gpu.GpuDevice;
import org.rocprofsys.core.gpu.GpuEvent;
import org.rocprofsys.core.gpu.GpuMarker;

/**
 * Decides which regions are recorded: a region that begins while collection is off (outside the
 * trace windows, or after the program called stop-trace) is dropped together with its end, as
 * upstream does; a region that began while on is kept whole. GPU events follow the same rule by
 * their begin time: API calls and markers, which arrive on their thread's ring in order, with their
 * thread's state; device work (kernels, copies, ...), which arrives up to a flush period late from
 * the runtime's own thread, by the process-wide state at the time it began. Devices always pass
 * (metadata).
 */
final class CollectionFilter implements Consumer<TraceEvent> {
    private final TraceWindows windows;
    private final boolean initiallyEnabled;
    private final Consumer<TraceEvent> downstream;
    private final Map<Integer, ProcessState> processes = new HashMap<>();
    private int lastPid;
    private ProcessState lastProcess;
    private ProcessState lastThreadOwner;
    private int lastTid;
    private ThreadState lastThread;

    private static final class ProcessState {
        final long startNs;
        final boolean initiallyEnabled;
        boolean enabled;
        final Map<Integer, ThreadState> threads = new HashMap<>();
        /** Process-wide start/stop by time, for device work that arrives after the fact. */
        final TreeMap<Long, Boolean> switches = new TreeMap<>();

        ProcessState(long startNs, boolean enabled) {
            this.startNs = startNs;
            this.initiallyEnabled = enabled;
            this.enabled = enabled;
        }

        boolean enabledAt(long ns) {
            Map.Entry<Long, Boolean> e = switches.floorEntry(ns);
            return e == null ? initiallyEnabled : e.getValue();
        }
    }

    private static final class ThreadState {
        boolean enabled = true;
        /** Whether each open region was recorded. */
        final RegionFlags recorded = new RegionFlags();
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
                lastProcess = null; // an exec's image replaces its pid's state
                lastThread = null;
                downstream.accept(e);
            }
            case TraceControl c -> {
                ProcessState p = process(c.pid(), c.timestampNs());
                if (c.processWide()) {
                    p.enabled = c.enable();
                    p.switches.put(c.timestampNs(), c.enable());
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
            case RegionRun r -> regions(r);
            case Mark m -> {
                ProcessState p = process(m.pid(), m.timestampNs());
                if (p.enabled && thread(p, m.tid()).enabled && windows.enabledAt(m.timestampNs() - p.startNs)) {
                    downstream.accept(e);
                }
            }
            case GpuActivity g -> {
                if (gpuEnabled(g.event())) {
                    downstream.accept(e);
                }
            }
            default -> downstream.accept(e);
        }
    }

    /** A run: each of its regions as if it came alone (no trace control can come inside a run). */
    private void regions(RegionRun r) {
        ProcessState p = process(r.pid(), r.timestampNs());
        ThreadState t = thread(p, r.tid());
        boolean enabled = p.enabled && t.enabled;
        int kept = 0;
        for (int i = 0, n = r.size(); i < n; i++) {
            boolean on;
            if (r.isBegin(i)) {
                on = enabled && windows.enabledAt(r.time(i) - p.startNs);
                t.recorded.push(on);
            } else {
                on = !t.recorded.isEmpty() && t.recorded.pop();
            }
            if (on) {
                r.keep(i, kept++);
            }
        }
        r.truncate(kept);
        if (kept > 0) {
            downstream.accept(r);
        }
    }

    private boolean gpuEnabled(GpuEvent g) {
        if (g instanceof GpuDevice) {
            return true;
        }
        ProcessState p = process(g.pid(), g.timestampNs());
        if (!windows.enabledAt(g.timestampNs() - p.startNs)) {
            return false;
        }
        return switch (g) {
            case GpuApiCall c -> p.enabled && thread(p, c.tid()).enabled;
            case GpuMarker m -> p.enabled && thread(p, m.tid()).enabled;
            default -> p.enabledAt(g.timestampNs());
        };
    }

    private ProcessState process(int pid, long now) {
        if (lastProcess != null && pid == lastPid) {
            return lastProcess;
        }
        ProcessState p = processes.computeIfAbsent(pid, k -> new ProcessState(now, initiallyEnabled));
        lastPid = pid;
        lastProcess = p;
        return p;
    }

    private ThreadState thread(ProcessState p, int tid) {
        // a ring's records come in runs of one thread: the last thread's state is asked again
        if (lastThread != null && p == lastThreadOwner && tid == lastTid) {
            return lastThread;
        }
        lastThreadOwner = p;
        lastTid = tid;
        lastThread = p.threads.computeIfAbsent(tid, k -> new ThreadState());
        return lastThread;
    }
}
