/*
 * The target of the sampling-overhead benchmark: THREADS threads each do ROUNDS rounds of the same
 * CPU-bound work in three nested functions (-O2 -fomit-frame-pointer, so samples need DWARF
 * unwinding). A fixed amount of work, not a fixed time, so a profiler that takes CPU from it
 * shows as a longer wall time. Timed inside the program (main's start to the last join), so the
 * profiler's own start-up and finalization do not count: what a user sees of their program.
 *
 *   overhead_work [threads=1] [rounds=2000]   prints "work_ns=<wall ns> cpu_ns=<process CPU ns>"
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "bench_work.h"

static long rounds;

static void* work(void* arg)
{
    double x = 0;
    for(long r = 0; r < rounds; ++r)
        x += outer(1000000, r + (long) arg);
    sink += x;
    return NULL;
}

static long long ns(struct timespec t) { return (long long) t.tv_sec * 1000000000LL + t.tv_nsec; }

int main(int argc, char** argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 1;
    rounds      = argc > 2 ? atol(argv[2]) : 2000;
    if(threads < 1 || threads > 256 || rounds < 1)
    {
        fprintf(stderr, "usage: overhead_work [threads 1..256] [rounds >= 1]\n");
        return 2;
    }
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    pthread_t tid[256];
    for(int i = 1; i < threads; ++i)
        pthread_create(&tid[i], NULL, work, (void*) (long) i);
    work(0);
    for(int i = 1; i < threads; ++i)
        pthread_join(tid[i], NULL);
    clock_gettime(CLOCK_MONOTONIC, &b);
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    long long cpu = (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000000000LL +
                    (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1000LL;
    printf("work_ns=%lld cpu_ns=%lld\n", ns(b) - ns(a), cpu);
    return 0;
}
