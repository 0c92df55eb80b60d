package org.rocprofsys.python;

import java.io.PrintStream;
import java.util.function.Consumer;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.TraceEvent;

/**
 * A Python interpreter run as a plain program (no rocprofsys package to record its functions): its
 * process is profiled as any other, under the main region named after the executable, as upstream
 * does; the first such process is told once on the log, naming what records Python functions.
 * Every event passes unchanged.
 */
public final class PlainInterpreterNotice implements Consumer<TraceEvent> {
    private final Consumer<TraceEvent> downstream;
    private final PrintStream log;
    private boolean told;

    public PlainInterpreterNotice(Consumer<TraceEvent> downstream, PrintStream log) {
        this.downstream = downstream;
        this.log = log;
    }

    @Override
    public void accept(TraceEvent e) {
        if (!told && e instanceof ProcessStarted p && InterpreterMainRegion.isInterpreter(p.executable())) {
            told = true;
            String name = p.executable().substring(p.executable().lastIndexOf('/') + 1);
            log.println("[rocprof-sys] " + name + " is profiled as a plain program (its main region, named after"
                    + " the executable); rocprof-sys-python -- script.py records its Python functions");
        }
        downstream.accept(e);
    }
}
