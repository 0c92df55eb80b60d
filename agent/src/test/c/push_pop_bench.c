/*
 * push+pop cost of the agent's record path. Run with the agent preloaded and a session dir on
 * tmpfs, e.g.
 *   ROCPROFSYS_SESSION_DIR=/dev/shm/x LD_PRELOAD=.../librocprof-sys.so push_pop_bench [pairs]
 * It acts as the collector for its own ring (moves tail up to head every 1024 pairs), so rings
 * never fill and every pair is really written. Prints the record clock the agent chose
 * (clock_kind: 0 CLOCK_MONOTONIC, 1 TSC; ROCPROFSYS_AGENT_CLOCK=monotonic forces 0) and ns per pair
 * for: an empty loop, two clock_gettime(CLOCK_MONOTONIC) calls, two rdtsc (x86-64), the agent's
 * rocprofsys_push_region/pop_region (called through pointers, as instrumentation would), and the
 * public user API (librocprof-sys-user). Results are the best of 5 runs, minus the empty loop.
 */
#include <rocprofiler-systems/user.h>

#include "rocprofsys_wire.h"

#include <dlfcn.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static volatile uint64_t *ring0_head, *ring0_tail;
static volatile uint32_t *clock_kind;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void consume(void)
{
    if (ring0_head) {
        __atomic_store_n(ring0_tail, __atomic_load_n(ring0_head, __ATOMIC_ACQUIRE),
                         __ATOMIC_RELEASE);
    }
}

typedef int (*region_fn)(const char *);

#define BEST_OF(var, ...)                                                                          \
    do {                                                                                           \
        var = 1e300;                                                                               \
        for (int rep = 0; rep < 5; rep++) {                                                        \
            consume();                                                                             \
            double t0 = now();                                                                     \
            __VA_ARGS__;                                                                                \
            double t = (now() - t0) / (double)n;                                                   \
            if (t < var) var = t;                                                                  \
        }                                                                                          \
    } while (0)

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000000L;
    const char *dir = getenv("ROCPROFSYS_SESSION_DIR");
    region_fn push = (region_fn)dlsym(RTLD_DEFAULT, "rocprofsys_push_region");
    region_fn pop = (region_fn)dlsym(RTLD_DEFAULT, "rocprofsys_pop_region");
    if (push == NULL || dir == NULL) {
        fprintf(stderr, "run with the agent preloaded and ROCPROFSYS_SESSION_DIR set\n");
        return 2;
    }
    push("warmup"); /* attaches this thread's ring (ring 0: main thread) */
    pop("warmup");
    char path[4096];
    snprintf(path, sizeof path, "%s/%d.0.ring", dir, (int)getpid());
    int fd = open(path, O_RDWR);
    if (fd >= 0) {
        struct stat st;
        fstat(fd, &st);
        unsigned char *m = mmap(NULL, 4096 + 256, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (m != MAP_FAILED) {
            clock_kind = (volatile uint32_t *)(m + offsetof(struct rsys_file_header, clock_kind));
            ring0_head = (volatile uint64_t *)(m + RSYS_FILE_HEADER_SIZE);
            ring0_tail = (volatile uint64_t *)(m + RSYS_FILE_HEADER_SIZE + 64);
        }
        close(fd);
    }
    if (!ring0_head) {
        fprintf(stderr, "cannot map %s\n", path);
        return 2;
    }
    /* warm the whole ring once */
    for (long i = 0; i < 200000; i++) {
        push("bench");
        pop("bench");
        if ((i & 1023) == 0) consume();
    }

    double empty, clock2, tsc2 = 0, agent, user;
    BEST_OF(empty, for (long i = 0; i < n; i++) {
        __asm__ volatile("" ::: "memory");
        if ((i & 1023) == 0) consume();
    });
    BEST_OF(clock2, for (long i = 0; i < n; i++) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        clock_gettime(CLOCK_MONOTONIC, &b);
        __asm__ volatile("" ::"r"(&a), "r"(&b) : "memory");
        if ((i & 1023) == 0) consume();
    });
#if defined(__x86_64__)
    BEST_OF(tsc2, for (long i = 0; i < n; i++) {
        uint64_t a = __builtin_ia32_rdtsc();
        uint64_t b = __builtin_ia32_rdtsc();
        __asm__ volatile("" ::"r"(a), "r"(b) : "memory");
        if ((i & 1023) == 0) consume();
    });
#endif
    BEST_OF(agent, for (long i = 0; i < n; i++) {
        push("bench");
        pop("bench");
        if ((i & 1023) == 0) consume();
    });
    BEST_OF(user, for (long i = 0; i < n; i++) {
        rocprofsys_user_push_region("bench");
        rocprofsys_user_pop_region("bench");
        if ((i & 1023) == 0) consume();
    });
    uint64_t dropped = *(volatile uint64_t *)((unsigned char *)ring0_head + 144);
    printf("clock_kind=%u\n", *clock_kind);
    printf("pairs_per_run=%ld\n", n);
    printf("empty_loop_ns=%.2f\n", empty);
    printf("two_clock_gettime_ns=%.2f\n", clock2 - empty);
#if defined(__x86_64__)
    printf("two_rdtsc_ns=%.2f\n", tsc2 - empty);
#endif
    printf("agent_push_pop_ns=%.2f\n", agent - empty);
    printf("agent_push_pop_minus_clock_ns=%.2f\n", agent - clock2);
    printf("user_api_push_pop_ns=%.2f\n", user - empty);
    printf("dropped=%llu\n", (unsigned long long)dropped);
    return 0;
}
