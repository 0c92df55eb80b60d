/*
 * trace-time-window: upstream's examples/trace-time-window in C, for ROCPROFSYS_TRACE_DELAY /
 * ROCPROFSYS_TRACE_DURATION tests.
 *
 * main calls outer_a, outer_b, outer_c, outer_d, outer_e in sequence, each in its own user region
 * named exactly after the function and lasting `ms` milliseconds (outer_c busy-waits, the others
 * sleep, as upstream's inner() alternates). The default is 460 ms rather than upstream's 500 so
 * that region starts (0, .46, .92, 1.38, 1.84 s) keep >= 100 ms from the windows the tests use:
 *   TRACE_DURATION=1.25                  -> main region, outer_a, outer_b, outer_c (no outer_d)
 *   TRACE_DELAY=0.75 TRACE_DURATION=0.75 -> outer_c, outer_d only
 * (with 500 ms, outer_d would start exactly at the end of the second window).
 *
 *   trace-time-window [nrepeat=1] [ms=460]
 */
#include <rocprofiler-systems/user.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

static long duration_ms = 460;

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static NOINLINE size_t inner(long ms)
{
    static long n = 0;
    if (n++ % 5 == 2) {
        long long end = now_ns() + ms * 1000000LL;
        size_t nitr = 0;
        while (now_ns() < end) {
            ++nitr;
        }
        return nitr;
    }
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
    return 1;
}

#define OUTER_FUNCTION(TAG)                                                                      \
    static NOINLINE size_t outer_##TAG(void)                                                     \
    {                                                                                            \
        rocprofsys_user_push_region("outer_" #TAG);                                              \
        size_t n = inner(duration_ms);                                                           \
        rocprofsys_user_pop_region("outer_" #TAG);                                               \
        return n;                                                                                \
    }

OUTER_FUNCTION(a)
OUTER_FUNCTION(b)
OUTER_FUNCTION(c)
OUTER_FUNCTION(d)
OUTER_FUNCTION(e)

int main(int argc, char **argv)
{
    int nrepeat = 1;
    if (argc > 1) nrepeat = atoi(argv[1]);
    if (argc > 2) duration_ms = atol(argv[2]);

    const char *name = strrchr(argv[0], '/');
    name = name ? name + 1 : argv[0];

    size_t nitr = 0;
    for (int i = 0; i < nrepeat; ++i) {
        nitr += outer_a();
        nitr += outer_b();
        nitr += outer_c();
        nitr += outer_d();
        nitr += outer_e();
        printf("[%s][%i] number of calls made = %zu\n", name, i, nitr);
    }
    return 0;
}
