package org.rocprofsys.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.Mark;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.TraceEvent;

class StageThreadTest {
    /** Records what it was given and on which threads (several threads would break the stages' contract). */
    private static final class Recording implements Consumer<TraceEvent> {
        final List<TraceEvent> events = new ArrayList<>();
        final Set<Thread> threads = new CopyOnWriteArraySet<>();

        @Override
        public void accept(TraceEvent e) {
            events.add(e);
            threads.add(Thread.currentThread());
        }
    }

    /** Marks and runs of 1 to 1500 regions, mixed: batches are cut by events and by a run's regions. */
    private static List<TraceEvent> mixed(int n) {
        List<TraceEvent> out = new ArrayList<>();
        java.util.Random random = new java.util.Random(11);
        for (int i = 0; i < n; i++) {
            if (random.nextInt(4) == 0) {
                RegionRun run = new RegionRun(1, 1, 8);
                int regions = 1 + random.nextInt(1500);
                for (int k = 0; k < regions; k++) {
                    run.addBegin(i * 10_000L + k, "r", Category.USER);
                }
                out.add(run);
            } else {
                out.add(new Mark(i, 1, 1, "m" + i, Category.USER));
            }
        }
        return out;
    }

    @Test
    void theStagesGetEveryEventInOrderOnOneThreadOfTheirOwn() {
        Recording stages = new Recording();
        StageThread thread = new StageThread(stages);
        List<TraceEvent> events = mixed(StageThread.BATCH * 3 + 5);
        events.forEach(thread::accept);
        thread.finish();
        thread.finish(); // a second finish does nothing

        assertEquals(events.size(), stages.events.size());
        for (int i = 0; i < events.size(); i++) {
            assertSame(events.get(i), stages.events.get(i), "event " + i);
        }
        assertEquals(1, stages.threads.size());
        assertNotSame(Thread.currentThread(), stages.threads.iterator().next());
        assertFalse(stages.threads.iterator().next().isAlive(), "the stages' thread ends with finish");
    }

    @Test
    void aStageFailureReachesTheCollectorAndTheThreadStillEnds() {
        IllegalStateException boom = new IllegalStateException("a stage failed");
        Set<Thread> threads = new CopyOnWriteArraySet<>();
        StageThread thread = new StageThread(e -> {
            threads.add(Thread.currentThread());
            throw boom;
        });
        // the failure comes back from a later accept, once the stages have seen the first batch...
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> {
            for (int i = 0; i < 1_000_000; i++) {
                thread.accept(new Mark(i, 1, 1, "m", Category.USER));
                if (i % StageThread.BATCH == 0) {
                    Thread.sleep(1);
                }
            }
        });
        assertSame(boom, thrown);
        // ...and from finish, which still waits for the thread
        assertSame(boom, assertThrows(IllegalStateException.class, thread::finish));
        assertFalse(threads.iterator().next().isAlive());
    }

    @Test
    void theMachineOrTheSettingDecides() {
        assertFalse(StageThread.wanted(2, StageThread.AUTOMATIC));
        assertFalse(StageThread.wanted(StageThread.MIN_CPUS - 1, StageThread.AUTOMATIC));
        assertTrue(StageThread.wanted(StageThread.MIN_CPUS, StageThread.AUTOMATIC));
        assertTrue(StageThread.wanted(2, "true"));
        assertFalse(StageThread.wanted(16, "false"));
    }
}
