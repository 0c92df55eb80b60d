package org.rocprofsys.core.launch;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Passes SIGINT, SIGTERM and SIGHUP sent to rocprof-sys-run on to the target, so the target
 * decides how to end and the outputs are still written. A terminal's Ctrl-C already reaches the
 * target (same process group), so SIGINT is passed on only if the target is still running a
 * moment later.
 */
final class SignalForwarding {
    private final List<Signal> signals = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();

    private SignalForwarding() {}

    static SignalForwarding install(Process target) {
        SignalForwarding f = new SignalForwarding();
        for (String name : new String[] {"INT", "TERM", "HUP"}) {
            Signal s = new Signal(name);
            f.signals.add(s);
            f.previous.add(Signal.handle(s, sig -> forward(target, name)));
        }
        return f;
    }

    private static void forward(Process target, String name) {
        Thread.ofVirtual().start(() -> {
            try {
                if (name.equals("INT") && target.waitFor(200, TimeUnit.MILLISECONDS)) {
                    return;
                }
                if (target.isAlive()) {
                    new ProcessBuilder("kill", "-" + name, Long.toString(target.pid()))
                            .start()
                            .waitFor();
                }
            } catch (IOException | InterruptedException e) {
                target.destroy();
            }
        });
    }

    void uninstall() {
        for (int i = 0; i < signals.size(); i++) {
            Signal.handle(signals.get(i), previous.get(i));
        }
    }
}
