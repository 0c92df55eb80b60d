/*
 * What the agent's push + pop of one Python call cost in a loop, beside two bare rdtsc: run under
 * rocprof-sys-run (the agent preloaded). device-bench.sh uses it to split the traced overhead of
 * the python benchmark into sys.monitoring's dispatch, our callback and the agent's record.
 *   agent-pushpop [N]
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

typedef int (*region_fn)(int, const char *, void *, size_t);

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    region_fn push = (region_fn)dlsym(RTLD_DEFAULT, "rocprofsys_push_category_region");
    region_fn pop = (region_fn)dlsym(RTLD_DEFAULT, "rocprofsys_pop_category_region");
    int n = argc > 1 ? atoi(argv[1]) : 635621;
    if (push == NULL || pop == NULL) {
        fprintf(stderr, "agent-pushpop: no agent in this process (run it under rocprof-sys-run)\n");
        return 1;
    }
    double best = 1e9, best_tsc = 1e9;
    for (int r = 0; r < 7; r++) {
        double t0 = cpu_seconds();
        for (int i = 0; i < n; i++) {
            push(1, "fib", NULL, 0);
            pop(1, NULL, NULL, 0);
        }
        double t1 = cpu_seconds();
        volatile unsigned long long sink = 0;
        for (int i = 0; i < n; i++) {
            sink += __rdtsc();
            sink += __rdtsc();
        }
        double t2 = cpu_seconds();
        best = t1 - t0 < best ? t1 - t0 : best;
        best_tsc = t2 - t1 < best_tsc ? t2 - t1 : best_tsc;
    }
    printf("AGENT push+pop %.1f ns per call, two rdtsc %.1f ns (best of 7, %d calls)\n", best / n * 1e9,
           best_tsc / n * 1e9, n);
    return 0;
}
