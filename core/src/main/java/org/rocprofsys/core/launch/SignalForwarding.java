package org.rocprofsys.core.launch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.rocprofsys.ffm.LibC;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Passes SIGINT, SIGTERM and SIGHUP sent to rocprof-sys-run on to the target, so the target
 * decides how to end and the outputs are still written. A terminal's Ctrl-C already reaches the
 * target (same process group; the launch helper between them ignores it, as a shell does), so
 * SIGINT is passed on only if the target is still running a moment later.
 */
final class SignalForwarding {
    private static final long INT_GRACE_NS = TimeUnit.MILLISECONDS.toNanos(200);

    private final List<Signal> signals = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();

    private SignalForwarding() {}

    static SignalForwarding install(TargetProcess target) {
        SignalForwarding f = new SignalForwarding();
        for (String name : new String[] {"INT", "TERM", "HUP"}) {
            Signal s = new Signal(name);
            f.signals.add(s);
            f.previous.add(Signal.handle(s, sig -> forward(target, sig.getNumber(), name.equals("INT"))));
        }
        return f;
    }

    private static void forward(TargetProcess target, int signal, boolean afterGrace) {
        Thread.ofVirtual().start(() -> {
            try {
                long until = System.nanoTime() + (afterGrace ? INT_GRACE_NS : 0);
                while (afterGrace && target.isAlive() && System.nanoTime() < until) {
                    Thread.sleep(5);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (target.isAlive()) {
                LibC.kill(target.pid(), signal);
            }
        });
    }

    void uninstall() {
        for (int i = 0; i < signals.size(); i++) {
            Signal.handle(signals.get(i), previous.get(i));
        }
    }
}
