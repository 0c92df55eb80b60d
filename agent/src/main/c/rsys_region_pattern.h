/*
 * The nested-region stream shared by the AOT cache's training target (aot_train.c) and the
 * benchmarks' region_stream: iteration j pushes one of 4 outer, 8 middle and 8 inner region
 * names and pops them again, six region events through the user API. The training run and the
 * measured one so push the same shape of records (292 distinct call paths).
 */
#ifndef ROCPROFSYS_REGION_PATTERN_H
#define ROCPROFSYS_REGION_PATTERN_H

#include <rocprofiler-systems/user.h>

static inline void rsys_region_pattern(const char *const outer[4], const char *const middle[8],
                                       const char *const inner[8], unsigned long j)
{
    rocprofsys_user_push_region(outer[j & 3]);
    rocprofsys_user_push_region(middle[(j >> 2) & 7]);
    rocprofsys_user_push_region(inner[(j >> 5) & 7]);
    rocprofsys_user_pop_region(inner[(j >> 5) & 7]);
    rocprofsys_user_pop_region(middle[(j >> 2) & 7]);
    rocprofsys_user_pop_region(outer[j & 3]);
}

#endif
