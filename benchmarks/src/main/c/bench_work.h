/*
 * The CPU-bound work of the sampling benchmarks' targets (sampled_work, overhead_work,
 * perf_sample_cost): three nested functions that the compiler may neither inline nor clone
 * (noipa), so that every sample lands in leaf, middle or outer under the caller's frames.
 * No dependency on the agent: these targets run without the profiler library; a target that
 * calls only leaf leaves the others unused.
 */
#ifndef ROCPROFSYS_BENCH_WORK_H
#define ROCPROFSYS_BENCH_WORK_H

static volatile double sink;

__attribute__((noipa, unused)) static double leaf(long n, long salt)
{
    double x = 0;
    for(long i = 0; i < n; ++i)
        x += (double) ((i + salt) ^ 0x6b6b) / (double) (i + 1);
    return x;
}

__attribute__((noipa, unused)) static double middle(long n, long salt) { return leaf(n, salt) + leaf(n / 2, salt + 1); }

__attribute__((noipa, unused)) static double outer(long n, long salt) { return middle(n, salt) + leaf(n / 4, salt); }

#endif
