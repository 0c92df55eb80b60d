/*
 * Per-call cost of binary instrumentation: calls a tiny function N times and times the loop
 * itself (wall time, and the thread's CPU time, which a busy machine does not inflate), so the instrumented copy (rocprof-sys-instrument -o) run under
 * rocprof-sys-run can be compared with this original in the same benchmark run.
 *
 *   instrumented_calls [N]     prints "calls=<N> loop_ns=<ns> cpu_ns=<ns>", and on x86-64 after the
 *                              loop "two_rdtsc_ns=<ns>": N iterations of two rdtsc, the floor of a
 *                              recorded call (two time stamps), in the same run
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

__attribute__((noipa)) long tiny(long x)
{
    return x * 3 + 1;
}

int main(int argc, char** argv)
{
    long            n = argc > 1 ? atol(argv[1]) : 5000000;
    long            s = 0;
    struct timespec a, b, ca, cb;
    clock_gettime(CLOCK_MONOTONIC, &a);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ca);
    for(long i = 0; i < n; ++i)
        s += tiny(i);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cb);
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("calls=%ld loop_ns=%lld cpu_ns=%lld sum=%ld\n", n,
           (long long) (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec),
           (long long) (cb.tv_sec - ca.tv_sec) * 1000000000LL + (cb.tv_nsec - ca.tv_nsec), s);
#if defined(__x86_64__)
    clock_gettime(CLOCK_MONOTONIC, &a);
    for(long i = 0; i < n; ++i)
    {
        unsigned long long t0 = __rdtsc();
        unsigned long long t1 = __rdtsc();
        __asm__ volatile("" ::"r"(t0), "r"(t1) : "memory");
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("two_rdtsc_ns=%.2f\n",
           (double) ((b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec)) / (double) n);
#endif
    return 0;
}
