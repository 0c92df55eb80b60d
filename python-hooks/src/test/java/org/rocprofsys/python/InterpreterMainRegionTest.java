package org.rocprofsys.python;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.SinkEvent;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.event.TraceEvent;

class InterpreterMainRegionTest {
    private final List<TraceEvent> out = new ArrayList<>();
    private final InterpreterMainRegion stage = new InterpreterMainRegion(out::add);

    private static ProcessStarted process(int pid, String exe) {
        return new ProcessStarted(1, pid, 1, exe, List.of(exe), 0, 0);
    }

    private static RegionBegin begin(int pid, int tid, String name, Category c) {
        return new RegionBegin(2, pid, tid, name, c, List.of(), null);
    }

    private static RegionEnd end(int pid, int tid, Category c) {
        return new RegionEnd(3, pid, tid, c, List.of(), null, false);
    }

    private List<String> regions() {
        return out.stream()
                .map(e -> switch (e) {
                    case RegionBegin b -> "B" + b.tid() + ":" + b.name();
                    case RegionEnd en -> "E" + en.tid();
                    default -> e.getClass().getSimpleName();
                })
                .toList();
    }

    @Test
    void interpreterNames() {
        assertTrue(InterpreterMainRegion.isInterpreter("/usr/bin/python3"));
        assertTrue(InterpreterMainRegion.isInterpreter("/root/.pyenv/versions/3.11.7/bin/python3.11"));
        assertTrue(InterpreterMainRegion.isInterpreter("python"));
        assertFalse(InterpreterMainRegion.isInterpreter("/usr/bin/python3-config"));
        assertFalse(InterpreterMainRegion.isInterpreter("/opt/app/mypython"));
    }

    @Test
    void thePythonMainRegionIsLeftOutWithItsEndOnly() {
        stage.accept(process(10, "/usr/bin/python3.12"));
        stage.accept(new ThreadStarted(1, 10, 10, 0));
        stage.accept(begin(10, 10, "python3.12", Category.HOST));
        stage.accept(begin(10, 10, "run", Category.PYTHON));
        stage.accept(begin(10, 10, "fib", Category.PYTHON));
        stage.accept(end(10, 10, Category.PYTHON));
        stage.accept(end(10, 10, Category.PYTHON));
        stage.accept(new ThreadStarted(1, 10, 11, 1));
        stage.accept(begin(10, 11, "worker", Category.PYTHON));
        stage.accept(end(10, 11, Category.PYTHON));
        stage.accept(end(10, 10, Category.HOST));
        assertEquals(
                List.of(
                        "ProcessStarted",
                        "ThreadStarted",
                        "B10:run",
                        "B10:fib",
                        "E10",
                        "E10",
                        "ThreadStarted",
                        "B11:worker",
                        "E11"),
                regions());
    }

    @Test
    void runsOfRegionsAreReadAsTheirEvents() {
        stage.accept(process(10, "/usr/bin/python3.12"));
        stage.accept(new ThreadStarted(1, 10, 10, 0));
        stage.accept(RegionRun.of(List.of(
                plain(begin(10, 10, "python3.12", Category.HOST)),
                plain(begin(10, 10, "run", Category.PYTHON)),
                plain(end(10, 10, Category.PYTHON)))));
        stage.accept(new ThreadStarted(1, 10, 11, 1));
        RegionRun worker = RegionRun.of(
                List.of(plain(begin(10, 11, "worker", Category.PYTHON)), plain(end(10, 11, Category.PYTHON))));
        stage.accept(worker);
        stage.accept(RegionRun.of(List.of(plain(end(10, 10, Category.HOST)))));
        assertSame(worker, out.get(out.size() - 1), "another thread's run passes whole");
        List<TraceEvent> expanded = new ArrayList<>();
        out.forEach(RegionRun.expanding(expanded::add));
        out.clear();
        out.addAll(expanded);
        assertEquals(
                List.of("ProcessStarted", "ThreadStarted", "B10:run", "E10", "ThreadStarted", "B11:worker", "E11"),
                regions());
    }

    private static SinkEvent plain(SinkEvent e) {
        return switch (e) {
            case RegionBegin b ->
                new RegionBegin(
                        b.timestampNs(), b.pid(), b.tid(), b.name(), b.category(), List.of(), RegionMetrics.NONE);
            case RegionEnd en ->
                new RegionEnd(
                        en.timestampNs(), en.pid(), en.tid(), en.category(), List.of(), RegionMetrics.NONE, false);
            default -> e;
        };
    }

    @Test
    void otherProgramsKeepTheirMainRegion() {
        stage.accept(process(20, "/usr/bin/app"));
        stage.accept(new ThreadStarted(1, 20, 20, 0));
        stage.accept(begin(20, 20, "app", Category.HOST));
        stage.accept(end(20, 20, Category.HOST));
        assertEquals(List.of("ProcessStarted", "ThreadStarted", "B20:app", "E20"), regions());
    }

    @Test
    void aForkedPythonChildLosesItsOwnMainRegionToo() {
        stage.accept(process(30, "/usr/bin/python3"));
        stage.accept(new ThreadStarted(1, 30, 30, 0));
        stage.accept(begin(30, 30, "python3", Category.HOST));
        stage.accept(process(31, "/usr/bin/python3"));
        stage.accept(new ThreadStarted(1, 31, 31, 0));
        stage.accept(begin(31, 31, "python3", Category.HOST));
        stage.accept(begin(31, 31, "child_work", Category.PYTHON));
        stage.accept(end(31, 31, Category.PYTHON));
        stage.accept(end(31, 31, Category.HOST));
        assertEquals(
                List.of("ProcessStarted", "ThreadStarted", "ProcessStarted", "ThreadStarted", "B31:child_work", "E31"),
                regions());
    }
}
