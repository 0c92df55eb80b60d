package org.rocprofsys.run;

import java.io.IOException;
import org.rocprofsys.core.perfetto.PerfettoFormat;
import org.rocprofsys.ffm.LibC;

/**
 * Start-up work that a run would otherwise do later on its critical path, done on a thread of its
 * own while the main thread reads the command line and the settings: binding the session
 * directory watch's libc calls (on the main thread just before the target is spawned) and
 * initialising the trace's protobuf classes (on the trace writer's thread after the target has
 * ended, where the run waits for it). Both are done the same way, and would fail the same way,
 * when the run gets there, so a failure here is left for that moment to report.
 */
final class StartupWarmUp {
    private StartupWarmUp() {}

    static void soon() {
        Thread.ofPlatform().daemon().name("rocprof-sys-warm-up").start(StartupWarmUp::run);
    }

    private static void run() {
        try {
            LibC.warmUpWatch();
            PerfettoFormat.warmUp();
        } catch (IOException | RuntimeException | LinkageError e) {
            // reported by the run itself when it binds or writes for real (a class whose
            // initialisation failed here says so, with this failure as its cause, when the run
            // uses it); nothing is printed from this thread
        }
    }
}
