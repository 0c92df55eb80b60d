/*
 * Benchmark 1: cost of one user-API region push+pop pair, recorded by the agent and drained by the
 * real collector. Run it under the profiler:
 *
 *   rocprof-sys-run -- push_pop [pairs per repetition] [repetitions]
 *
 * Each repetition times, back to back on this thread:
 *   empty     `pairs` iterations of an empty loop (a compiler barrier keeps every iteration)
 *   clock     `pairs` iterations of two clock_gettime(CLOCK_MONOTONIC) calls: what a pair must
 *             at least pay while the agent stamps records with that clock
 *   rdtsc     `pairs` iterations of two rdtsc instructions (x86-64 only): the floor with TSC stamps
 *   push_pop  `pairs` iterations of rocprofsys_user_push_region + rocprofsys_user_pop_region,
 *             through librocprof-sys-user.so exactly as an annotated program calls them
 * and reads this thread's dropped-record counter from its ring header before and after the
 * push_pop loop. Before each push_pop loop it waits until the collector has drained the ring, so
 * every repetition starts from an empty ring: with a ring larger than one repetition's records
 * (24 + 16 B per pair with the name "bench"; ROCPROFSYS_RING_BUFFER_SIZE_KB) nothing is dropped
 * and the figure is the cost of recording while the collector drains on another core. The figures are medians over the repetitions (the minimum is printed too).
 * With ROCPROFSYS_RING_BUFFER_LOSSLESS=ON a full ring makes the loop wait for the collector, so
 * the figure includes keeping up with it; by default a full ring drops (and counts) records.
 */
#include <rocprofiler-systems/user.h>

#include "bench_common.h"

#define MAX_REPS 64

int main(int argc, char **argv)
{
    long pairs = argc > 1 ? atol(argv[1]) : 2000000L;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    if (pairs <= 0 || reps <= 0 || reps > MAX_REPS) {
        fprintf(stderr, "usage: push_pop [pairs > 0] [repetitions 1..%d]\n", MAX_REPS);
        return 2;
    }
    int bound = rocprofsys_user_push_region("warmup") == ROCPROFSYS_USER_SUCCESS;
    rocprofsys_user_pop_region("warmup");
    uint64_t ring_size = 0;
    const volatile struct rsys_ring_header *ring = bench_own_ring(&ring_size);
    /*
     * Warm-up: caches, the collector's JIT, and every page of the ring (the first write to a page
     * of the shared file faults it in), written a quarter of the ring at a time so that nothing
     * is dropped where the ring is larger than the collector can keep up with.
     */
    long chunk = ring_size ? (long)(ring_size / 4 / 40) : 50000;
    long warm = ring_size ? (long)(ring_size / 40 * 5 / 4) : 200000;
    for (long done = 0; done < warm || done < 200000; done += chunk) {
        bench_wait_drained(ring, 60.0);
        for (long i = 0; i < chunk; i++) {
            rocprofsys_user_push_region("bench");
            rocprofsys_user_pop_region("bench");
        }
    }

    double empty[MAX_REPS], clock2[MAX_REPS], tsc2[MAX_REPS], pp[MAX_REPS], net[MAX_REPS];
    long long dropped_total = 0;
    for (int r = 0; r < reps; r++) {
        uint64_t t0 = bench_now_ns();
        for (long i = 0; i < pairs; i++) {
            __asm__ volatile("" ::: "memory");
        }
        uint64_t t1 = bench_now_ns();
        for (long i = 0; i < pairs; i++) {
            struct timespec a, b;
            clock_gettime(CLOCK_MONOTONIC, &a);
            clock_gettime(CLOCK_MONOTONIC, &b);
            __asm__ volatile("" ::"r"(&a), "r"(&b) : "memory");
        }
        uint64_t t2a = bench_now_ns();
#if defined(__x86_64__)
        for (long i = 0; i < pairs; i++) {
            uint64_t a = __builtin_ia32_rdtsc();
            uint64_t b = __builtin_ia32_rdtsc();
            __asm__ volatile("" ::"r"(a), "r"(b) : "memory");
        }
#endif
        uint64_t t2 = bench_now_ns();
        double waited = bench_wait_drained(ring, 60.0);
        long long d0 = bench_dropped(ring);
        uint64_t t3 = bench_now_ns();
        for (long i = 0; i < pairs; i++) {
            rocprofsys_user_push_region("bench");
            rocprofsys_user_pop_region("bench");
            __asm__ volatile("" ::: "memory");
        }
        uint64_t t4 = bench_now_ns();
        long long d1 = bench_dropped(ring);
        empty[r] = (double)(t1 - t0) / (double)pairs;
        clock2[r] = (double)(t2a - t1) / (double)pairs;
        tsc2[r] = (double)(t2 - t2a) / (double)pairs;
        pp[r] = (double)(t4 - t3) / (double)pairs;
        net[r] = pp[r] - empty[r];
        if (d0 >= 0 && d1 >= 0) {
            dropped_total += d1 - d0;
        }
        fprintf(stderr,
                "push_pop: rep %d: empty %.2f ns, 2x clock_gettime %.2f ns, 2x rdtsc %.2f ns, push+pop %.2f ns, "
                "dropped %lld (waited %.3f s for an empty ring)\n",
                r, empty[r], clock2[r], tsc2[r], pp[r], d0 >= 0 && d1 >= 0 ? d1 - d0 : -1, waited);
    }
    double min_net = net[0];
    for (int r = 1; r < reps; r++) {
        min_net = net[r] < min_net ? net[r] : min_net;
    }
    printf("bound=%d\n", bound);
    printf("pairs_per_rep=%ld\n", pairs);
    printf("reps=%d\n", reps);
    printf("empty_loop_ns=%.3f\n", bench_median(empty, reps));
    printf("two_clock_gettime_ns=%.3f\n", bench_median(clock2, reps));
#if defined(__x86_64__)
    printf("two_rdtsc_ns=%.3f\n", bench_median(tsc2, reps));
#endif
    printf("push_pop_ns=%.3f\n", bench_median(pp, reps));
    printf("push_pop_minus_empty_ns=%.3f\n", bench_median(net, reps));
    printf("push_pop_minus_empty_min_ns=%.3f\n", min_net);
    printf("records_attempted=%lld\n", 2LL * pairs * reps);
    printf("records_dropped=%lld\n", ring == NULL ? -1 : dropped_total);
    return 0;
}
