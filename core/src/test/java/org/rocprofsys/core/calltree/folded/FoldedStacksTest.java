package org.rocprofsys.core.calltree.folded;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.calltree.CallNode;
import org.rocprofsys.core.calltree.CallTree;
import org.rocprofsys.core.calltree.ProcessCalls;
import org.rocprofsys.core.calltree.ThreadCalls;
import org.rocprofsys.core.event.SinkFeed;
import org.rocprofsys.core.pipeline.EventNormaliser;
import org.rocprofsys.tracetest.EventStream;

/**
 * A format outside core.calltree reads the call tree through its public face alone: here a flame
 * graph's folded stacks (one line per path: the names joined by ';', then the path's own wall
 * time), as a rocprofv3 summary or a flame-graph output would.
 */
class FoldedStacksTest {
    private static final int PID = 100;

    @Test
    void aFlameGraphsFoldedStacksFromThePublicCallTree() {
        List<org.rocprofsys.core.event.TraceEvent> events = EventStream.at(0)
                .in(PID)
                .processStarted(0, "/bin/app")
                .threadStarted(0, PID, 0)
                .begin(0, PID, "main")
                .region(10, 30, PID, "a")
                .begin(40, PID, "b")
                .region(45, 55, PID, "c")
                .region(56, 58, PID, "c")
                .end(70, PID)
                .end(100, PID)
                .threadStarted(5, PID + 1, 1)
                .region(60, 80, PID + 1, "w") // begins while main is in b: hangs below it
                .events();
        CallTree tree = CallTree.wallClock();
        EventNormaliser normaliser = SinkFeed.feed(tree::accept, events);
        normaliser.finish(200);
        tree.finish(200);

        List<String> lines = new ArrayList<>();
        for (ProcessCalls p : tree.processes()) {
            for (ThreadCalls t : p.threads()) {
                String prefix = t.bookmark() == null ? "" : pathOf(p, t.bookmark()) + ";";
                for (CallNode n : t.head().children()) {
                    fold(prefix + n.name(), n, lines);
                }
            }
        }
        assertEquals(
                List.of("main 50", "main;a 20", "main;b 18", "main;b;c 12", "main;b;w 20"),
                lines.stream().sorted().toList());
        assertEquals(2, tree.processes().get(0).threads().size());
        CallNode c = tree.processes()
                .get(0)
                .main()
                .head()
                .children()
                .get(0)
                .children()
                .get(1)
                .children()
                .get(0);
        assertEquals(2, c.measure().laps(), "c's two calls on one path");
    }

    /** The path's line with its own time (its wall time less its children's), then its children's. */
    private static void fold(String path, CallNode n, List<String> out) {
        long self = n.measure().raw(0);
        for (CallNode c : n.children()) {
            self -= c.measure().raw(0);
        }
        out.add(path + " " + self);
        for (CallNode c : n.children()) {
            fold(path + ";" + c.name(), c, out);
        }
    }

    /** The names from the main thread's head down to {@code node}. */
    private static String pathOf(ProcessCalls p, CallNode node) {
        return find(p.main().head(), node, "");
    }

    private static String find(CallNode from, CallNode target, String path) {
        for (CallNode c : from.children()) {
            String here = path.isEmpty() ? c.name() : path + ";" + c.name();
            if (c == target) {
                return here;
            }
            String below = find(c, target, here);
            if (below != null) {
                return below;
            }
        }
        return null;
    }
}
