package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;

/**
 * Realtime sampling does not change how long the program's own calls take (issue 36, item 5): the
 * agent's wall-clock timer signal at 1 kHz interrupts sleeping threads, and the sleeps and waits
 * it cut short (usleep, nanosleep, clock_nanosleep, poll, select, epoll_wait, sleep) resume for
 * the time left; the program times each of its sleeps itself (CLOCK_MONOTONIC) and each lasts at
 * least what it asked for. A signal of the program's own still ends a sleep with EINTR.
 */
class SleepsUnderSamplingIT extends DistributionTest {
    private static final String PROGRAM = """
            #define _GNU_SOURCE
            #include <errno.h>
            #include <poll.h>
            #include <pthread.h>
            #include <signal.h>
            #include <stdio.h>
            #include <string.h>
            #include <sys/epoll.h>
            #include <sys/select.h>
            #include <time.h>
            #include <unistd.h>

            /* Each kind of sleep, timed by the program itself: "<call> <asked ms> <slept ms> <rc>". */
            static double now_ms(void) {
                struct timespec t;
                clock_gettime(CLOCK_MONOTONIC, &t);
                return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
            }
            static void report(const char *call, double want, double t0, int rc) {
                printf("%s %.0f %.3f %d\\n", call, want, now_ms() - t0, rc);
            }
            static volatile sig_atomic_t got;
            static void on_usr1(int s) { (void) s; got = 1; }
            static void *poke(void *main_thread) {
                struct timespec t = {0, 200000000};
                nanosleep(&t, NULL);
                pthread_kill(*(pthread_t *) main_thread, SIGUSR1);
                return NULL;
            }

            int main(void) {
                for (int i = 0; i < 10; i++) {
                    double t0 = now_ms();
                    int rc = usleep(100000);
                    report("usleep", 100, t0, rc);
                }
                for (int i = 0; i < 2; i++) {
                    struct timespec t = {0, 100000000};
                    double t0 = now_ms();
                    report("nanosleep", 100, t0, nanosleep(&t, NULL));
                }
                for (int i = 0; i < 2; i++) {
                    struct timespec t = {0, 100000000};
                    double t0 = now_ms();
                    report("clock_nanosleep", 100, t0, clock_nanosleep(CLOCK_MONOTONIC, 0, &t, NULL));
                }
                {
                    struct timespec t;
                    clock_gettime(CLOCK_MONOTONIC, &t);
                    double t0 = now_ms();
                    t.tv_nsec += 100000000;
                    if (t.tv_nsec >= 1000000000) { t.tv_sec++; t.tv_nsec -= 1000000000; }
                    report("clock_nanosleep_abs", 100, t0, clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL));
                }
                for (int i = 0; i < 2; i++) {
                    double t0 = now_ms();
                    report("poll", 100, t0, poll(NULL, 0, 100));
                }
                for (int i = 0; i < 2; i++) {
                    struct timeval tv = {0, 100000};
                    double t0 = now_ms();
                    report("select", 100, t0, select(0, NULL, NULL, NULL, &tv));
                }
                {
                    int ep = epoll_create1(0);
                    struct epoll_event ev;
                    double t0 = now_ms();
                    report("epoll_wait", 100, t0, epoll_wait(ep, &ev, 1, 100));
                    close(ep);
                }
                {
                    double t0 = now_ms();
                    report("sleep", 1000, t0, (int) sleep(1));
                }
                /* the program's own signal still ends a sleep: EINTR after the other thread's SIGUSR1 */
                struct sigaction sa;
                memset(&sa, 0, sizeof sa);
                sa.sa_handler = on_usr1;
                sigaction(SIGUSR1, &sa, NULL);
                pthread_t self = pthread_self(), other;
                pthread_create(&other, NULL, poke, &self);
                struct timespec longer = {30, 0};
                int rc = nanosleep(&longer, &longer);
                printf("interrupted %d %d %d\\n", rc, rc < 0 ? errno : 0, (int) got);
                pthread_join(other, NULL);
                return 0;
            }
            """;

    @Test
    void theProgramsSleepsLastWhatTheyAskFor() throws Exception {
        Path program = cProgram("sleeps", PROGRAM, "-O2", "-pthread");
        ProcessResult r = tool(
                "rocprof-sys-sample",
                environment("sleeps", "ROCPROFSYS_PROFILE", "ON"),
                argv("--realtime 1000 0 --", program.toString()));
        assertEquals(0, r.exitCode(), r::toString);
        List<String[]> sleeps = r.stdout()
                .lines()
                .filter(l -> !l.startsWith("interrupted"))
                .map(l -> l.split(" "))
                .filter(f -> f.length == 4)
                .toList();
        assertEquals(21, sleeps.size(), r::toString);
        double shortest = Double.MAX_VALUE;
        for (String[] s : sleeps) {
            double asked = Double.parseDouble(s[1]);
            double slept = Double.parseDouble(s[2]);
            assertEquals("0", s[3], () -> String.join(" ", s) + "\n" + r);
            assertTrue(slept >= asked, () -> String.join(" ", s) + " cut short\n" + r.stdout());
            shortest = Math.min(shortest, slept / asked);
        }
        System.out.printf(
                "[SleepsUnderSamplingIT] %d sleeps under 1 kHz realtime sampling, the shortest %.3f of what it"
                        + " asked%n",
                sleeps.size(), shortest);
        // "interrupted -1 4 1": nanosleep failed with EINTR (4) and the program's handler ran
        assertTrue(r.stdout().contains("interrupted -1 4 1"), r::toString);
        // and the sleeping thread was sampled (its stacks in the wall-clock profile)
        Map<String, Long> leaves = ProfileGraph.leaves(
                ProfileGraph.graph(outputRoot().resolve("sleeps/sampling_wall_clock.json"), "sampling_wall_clock"));
        assertTrue(leaves.values().stream().mapToLong(Long::longValue).sum() > 0, leaves::toString);
    }
}
