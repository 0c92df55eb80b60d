/*
 * Cost of one timer sample, as the sampled thread pays it (signal delivery, the agent's handler
 * with its frame-pointer walk and stack copy, sigreturn): runs a fixed amount of work on the main
 * thread and prints its CPU time. Run it once without timers and once with, under the agent:
 *
 *   ROCPROFSYS_SESSION_DIR=<dir> ROCPROFSYS_AGENT_RING_KB=65536 \
 *   ROCPROFSYS_AGENT_TIMERS='realtime:34:200000:0:*' LD_PRELOAD=.../librocprof-sys.so timer_sample_bench
 *
 * then count the STACK_SAMPLE records of the ring file: (cpu with - cpu without) / samples.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile double sink;

static double now(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

__attribute__((noinline)) static double work(long n)
{
    double x = 0;
    for (long i = 0; i < n; i++) {
        x += (double)(i ^ 0x5a5a) / (double)(i + 1);
    }
    return x;
}

__attribute__((noinline)) static void level3(long n) { sink += work(n); }
__attribute__((noinline)) static void level2(long n) { level3(n); }
__attribute__((noinline)) static void level1(long n) { level2(n); }

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? atol(argv[1]) : 2000;
    double c0 = now(CLOCK_THREAD_CPUTIME_ID), w0 = now(CLOCK_MONOTONIC);
    for (long r = 0; r < rounds; r++) {
        level1(100000);
    }
    double c1 = now(CLOCK_THREAD_CPUTIME_ID), w1 = now(CLOCK_MONOTONIC);
    printf("cpu_s=%.6f wall_s=%.6f\n", c1 - c0, w1 - w0);
    return 0;
}
