/*
 * CPU-bound work for the sampling-overhead benchmark: a fixed amount of work in a few nested
 * functions (built -O2 -fomit-frame-pointer like distribution code, so samples need DWARF
 * unwinding), timed by the program itself around the work only (wall time, and the thread's CPU
 * time, which includes the kernel's cost of taking samples but not time other processes take on a
 * busy machine), so start-up and the profiler's finalization do not count.
 *
 *   sampled_work [rounds]     prints "work_ns=<ns> cpu_ns=<ns>"
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_work.h"

int main(int argc, char** argv)
{
    long            rounds = argc > 1 ? atol(argv[1]) : 60;
    struct timespec a, b, ca, cb;
    clock_gettime(CLOCK_MONOTONIC, &a);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ca);
    for(long r = 0; r < rounds; ++r)
        sink += outer(1000000, r);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cb);
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("work_ns=%lld cpu_ns=%lld\n", (long long) (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec),
           (long long) (cb.tv_sec - ca.tv_sec) * 1000000000LL + (cb.tv_nsec - ca.tv_nsec));
    return 0;
}
