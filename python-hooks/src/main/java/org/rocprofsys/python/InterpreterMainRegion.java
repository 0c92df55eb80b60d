package org.rocprofsys.python;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.tracker.ThreadTable;

/**
 * Leaves out the main region of a Python interpreter's process (the agent opens one named after
 * the executable on thread 0): the profiled program is the script, so its functions and regions
 * are the roots of the profile and of the thread's track, as in upstream's Python profiles, where
 * the interpreter is never the profiled executable. Every other event passes unchanged.
 */
public final class InterpreterMainRegion implements Consumer<TraceEvent> {
    private static final Pattern PYTHON = Pattern.compile("python[0-9.]*[a-z]?");

    private final Consumer<TraceEvent> downstream;
    private final Map<Integer, Boolean> pythonProcess = new HashMap<>();
    /** Per (pid, tid) of a Python process's thread 0: the open main region's nesting. */
    private final Map<Long, MainThread> mainThreads = new HashMap<>();

    private static final class MainThread {
        boolean seenMain;
        boolean mainOpen;
        int depth;
    }

    public InterpreterMainRegion(Consumer<TraceEvent> downstream) {
        this.downstream = downstream;
    }

    /** Whether an executable path names a Python interpreter (python, python3, python3.12, ...). */
    static boolean isInterpreter(String executable) {
        int slash = executable.lastIndexOf('/');
        return PYTHON.matcher(executable.substring(slash + 1)).matches();
    }

    @Override
    public void accept(TraceEvent e) {
        // nearly every event is a region of a process that is no interpreter: passed on at once
        Class<?> type = e.getClass();
        if (mainThreads.isEmpty()
                && (type == RegionBegin.class || type == RegionEnd.class || type == RegionRun.class)) {
            downstream.accept(e);
            return;
        }
        switch (e) {
            case ProcessStarted p -> {
                pythonProcess.put(p.pid(), isInterpreter(p.executable()));
                mainThreads.keySet().removeIf(k -> (int) (k >>> 32) == p.pid());
                downstream.accept(e);
            }
            case ThreadStarted t -> {
                if (t.sequence() == 0 && pythonProcess.getOrDefault(t.pid(), false)) {
                    mainThreads.put(ThreadTable.key(t.pid(), t.tid()), new MainThread());
                }
                downstream.accept(e);
            }
            case RegionBegin b -> {
                MainThread m = mainThreads.isEmpty() ? null : mainThreads.get(ThreadTable.key(b.pid(), b.tid()));
                if (m == null) {
                    downstream.accept(e);
                } else if (!m.seenMain) {
                    m.seenMain = true;
                    m.mainOpen = true;
                } else {
                    m.depth++;
                    downstream.accept(e);
                }
            }
            case RegionEnd en -> {
                MainThread m = mainThreads.isEmpty() ? null : mainThreads.get(ThreadTable.key(en.pid(), en.tid()));
                if (m == null) {
                    downstream.accept(e);
                } else if (m.depth > 0) {
                    m.depth--;
                    downstream.accept(e);
                } else {
                    m.mainOpen = false;
                }
            }
            case RegionRun r -> {
                if (mainThreads.containsKey(ThreadTable.key(r.pid(), r.tid()))) {
                    r.forEachEvent(this); // the interpreter's main thread: its main region is taken out
                } else {
                    downstream.accept(e);
                }
            }
            default -> downstream.accept(e);
        }
    }
}
