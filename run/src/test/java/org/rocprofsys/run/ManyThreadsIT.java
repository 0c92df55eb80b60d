package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.tracetest.DecodedTrace;

/**
 * Issue 35, item 6: threads past ROCPROFSYS_RING_BUFFER_MAX_THREADS. The setting counted every
 * thread of a process's life: 3,000 threads with at most 100 alive gave 1,024 thread tracks and a
 * warning that blamed a 10 s stall. A new thread now takes the ring slot of an ended one, so the
 * setting bounds the threads alive at once; more than that is said, naming the setting.
 */
class ManyThreadsIT extends DistributionTest {
    /** {@code many-threads TOTAL ALIVE}: TOTAL threads, at most ALIVE at once, each recording one region. */
    private static final String MANY_THREADS = """
            #include <rocprofiler-systems/user.h>
            #include <pthread.h>
            #include <stdio.h>
            #include <stdlib.h>
            static pthread_barrier_t all_alive;
            static int hold;
            static void *work(void *arg) {
                (void)arg;
                rocprofsys_user_push_region("worker");
                volatile double x = 0;
                for (int i = 0; i < 20000; i++) x += i * 0.5;
                rocprofsys_user_pop_region("worker");
                if (hold) pthread_barrier_wait(&all_alive);
                return NULL;
            }
            int main(int argc, char **argv) {
                int total = atoi(argv[1]), alive = atoi(argv[2]);
                hold = argc > 3; /* every thread stays until all have started: ALIVE live at once */
                if (hold) pthread_barrier_init(&all_alive, NULL, (unsigned)total);
                pthread_t *t = calloc((size_t)total, sizeof *t);
                for (int i = 0; i < total; i++) {
                    if (i >= alive) pthread_join(t[i - alive], NULL);
                    if (pthread_create(&t[i], NULL, work, NULL) != 0) { perror("pthread_create"); return 1; }
                }
                for (int i = total > alive ? total - alive : 0; i < total; i++) pthread_join(t[i], NULL);
                return 0;
            }
            """;

    @Test
    void threeThousandThreadsAHundredAliveAreAllRecorded() throws Exception {
        Path program = build();
        ProcessResult r =
                tool("rocprof-sys-run", environment("threads"), "-T", "-P", "--", program.toString(), "3000", "100");
        assertEquals(0, r.exitCode(), r::toString);
        assertFalse(r.stderr().contains("[rocprof-sys] warning"), r::toString);
        Path dir = outputRoot().resolve("threads");

        DecodedTrace trace = DecodedTrace.read(dir.resolve("perfetto-trace.proto"));
        Set<Long> workerTracks = new HashSet<>();
        trace.slices.stream().filter(s -> s.name.equals("worker")).forEach(s -> workerTracks.add(s.trackUuid));
        assertEquals(
                3000, trace.slices.stream().filter(s -> s.name.equals("worker")).count());
        assertEquals(3000, workerTracks.size(), "thread tracks with a worker slice");

        long workers = 0;
        long laps = 0;
        for (JsonNode e : ProfileGraph.graph(dir.resolve("wall_clock.json"), "wall_clock")) {
            if (e.get("prefix").asText().endsWith("|_worker")) {
                workers++;
                laps += ProfileGraph.laps(e);
            }
        }
        assertEquals(3000, workers, "profile entries of worker (one per thread)");
        assertEquals(3000, laps);
    }

    /** More threads alive at once than slots: the warning says so and names the setting. */
    @Test
    void moreLiveThreadsThanSlotsNameTheSetting() throws Exception {
        Path program = build();
        ProcessResult r = tool(
                "rocprof-sys-run",
                environment("crowd", "ROCPROFSYS_RING_BUFFER_MAX_THREADS", "16"),
                "-T",
                "--",
                program.toString(),
                "40",
                "40",
                "hold");
        assertEquals(0, r.exitCode(), r::toString);
        List<String> warnings = r.stderr()
                .lines()
                .filter(l -> l.contains("[rocprof-sys] warning"))
                .toList();
        assertEquals(1, warnings.size(), r::toString);
        // main and 15 threads have slots; the other 25 threads were alive with them
        assertTrue(warnings.getFirst().contains("25 thread(s) found every one of its 16 ring slots held"), r::toString);
        assertTrue(warnings.getFirst().contains("ROCPROFSYS_RING_BUFFER_MAX_THREADS"), r::toString);
        assertFalse(warnings.getFirst().contains(" ms"), "no stall is blamed: " + warnings);
    }

    private Path build() throws Exception {
        return userApiProgram("many-threads", MANY_THREADS, "-O0", "-g", "-pthread");
    }
}
