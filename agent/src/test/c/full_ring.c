/*
 * A thread that records far faster than anyone drains: `full_ring <pairs>` pushes and pops a
 * region `pairs` times through the agent (preloaded, ROCPROFSYS_SESSION_DIR set) and prints the
 * loop's wall time. core's FullRingPolicyTest runs it with a small ring and reads the ring file
 * afterwards (or drains it while it runs) to check the agent's full-ring policy.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef int (*region_fn)(const char *);

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100000;
    region_fn push = (region_fn)dlsym(RTLD_DEFAULT, "rocprofsys_push_region");
    region_fn pop = (region_fn)dlsym(RTLD_DEFAULT, "rocprofsys_pop_region");
    if (push == NULL || pop == NULL) {
        fprintf(stderr, "run with the agent preloaded\n");
        return 2;
    }
    long long t0 = now_ns();
    for (long i = 0; i < n; i++) {
        push("r");
        pop("r");
    }
    printf("pairs=%ld\n", n);
    printf("elapsed_ns=%lld\n", now_ns() - t0);
    return 0;
}
