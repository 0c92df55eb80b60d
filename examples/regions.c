/*
 * regions: a tight loop of user-API regions, for ring-buffer tests and overhead measurements.
 *
 * Demonstrates: `regions <n>` runs n iterations of outer > inner (two nested push/pop pairs per
 * iteration) on the main thread, as fast as it can, then prints the count.
 */
#include <rocprofiler-systems/user.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100000;
    for (long i = 0; i < n; ++i) {
        rocprofsys_user_push_region("outer");
        rocprofsys_user_push_region("inner");
        rocprofsys_user_pop_region("inner");
        rocprofsys_user_pop_region("outer");
    }
    printf("[regions] %ld iterations\n", n);
    return 0;
}
