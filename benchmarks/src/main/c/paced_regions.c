/*
 * A program that records at a steady pace, slower than the collector decodes: pushes and pops one
 * region RATE times a second for SECONDS, and reports the longest gap between two turns of its loop,
 * i.e. the longest time the profiler stopped it (a full ring it had to wait for, a collector that
 * took its CPU). Used by the stall benchmark (docs/benchmarks.md, "Records held while the target
 * runs"):
 *
 *   rocprof-sys-run -- paced_regions [RATE] [SECONDS]
 *
 * Output: "pairs=<n> max_gap_ms=<ms>" on stdout.
 */
#include <rocprofiler-systems/user.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_common.h"

int main(int argc, char **argv)
{
    double    rate = argc > 1 ? atof(argv[1]) : 2e6;
    double    secs = argc > 2 ? atof(argv[2]) : 6;
    uint64_t  t0 = bench_now_ns();
    uint64_t  last = t0;
    uint64_t  longest = 0;
    long long pairs = 0;
    uint64_t  end = t0 + (uint64_t)(secs * 1e9);
    for(;;)
    {
        uint64_t t = bench_now_ns();
        if(t - last > longest) longest = t - last;
        last = t;
        if(t >= end) break;
        long long due = (long long)((double)(t - t0) * rate / 1e9);
        for(; pairs < due; pairs++)
        {
            rocprofsys_user_push_region("paced");
            rocprofsys_user_pop_region("paced");
        }
    }
    printf("pairs=%lld max_gap_ms=%.1f\n", pairs, (double)longest / 1e6);
    return 0;
}
