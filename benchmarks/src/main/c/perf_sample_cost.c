/*
 * The target-side cost of rocprof-sys's call-stack sampling, without the collector: a child does
 * a fixed amount of CPU-bound work and reports its own thread CPU time; the parent attaches the
 * same perf event rocprof-sys-sample uses (software cpu-clock, per-CPU with inherit, user-only,
 * IP|TID|TIME|CALLCHAIN|CPU|PERIOD + user registers + 8 KiB of user stack, CLOCK_MONOTONIC, at
 * FREQ Hz), empties the rings while the child runs, and compares with an unsampled child.
 * Machine-dependent (VM exits make sampling dearer in virtual machines), collector-independent.
 *
 *   perf_sample_cost [freq=1000] [rounds=120] [reps=5]
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_work.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* child: wait for the go byte, work, write the work's CPU seconds */
static pid_t spawn(long rounds, int* go_w, int* res_r)
{
    int go[2], res[2];
    if(pipe(go) || pipe(res)) exit(1);
    pid_t p = fork();
    if(p == 0)
    {
        char c;
        close(go[1]);
        close(res[0]);
        if(read(go[0], &c, 1) != 1) _exit(1);
        double t0 = cpu_now();
        for(long r = 0; r < rounds; ++r)
            sink += leaf(1000000, r);
        double t = cpu_now() - t0;
        if(write(res[1], &t, sizeof t) != sizeof t) _exit(1);
        _exit(0);
    }
    close(go[0]);
    close(res[1]);
    *go_w  = go[1];
    *res_r = res[0];
    return p;
}

static double run(long rounds, long freq)
{
    int   go, res;
    pid_t p     = spawn(rounds, &go, &res);
    long  ncpu  = sysconf(_SC_NPROCESSORS_ONLN);
    int*  fds   = calloc(ncpu, sizeof(int));
    void** maps = calloc(ncpu, sizeof(void*));
    size_t len  = (size_t) sysconf(_SC_PAGESIZE) * (1 + 256);
    if(freq > 0)
    {
        struct perf_event_attr a;
        memset(&a, 0, sizeof a);
        a.size              = sizeof a;
        a.type              = PERF_TYPE_SOFTWARE;
        a.config            = PERF_COUNT_SW_CPU_CLOCK;
        a.sample_freq       = freq;
        a.freq              = 1;
        a.sample_type       = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN |
                        PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
        a.sample_regs_user  = 0xffULL | (1ULL << 8) | (0xffULL << 16);
        a.sample_stack_user = 8192;
        a.inherit           = 1;
        a.exclude_kernel    = 1;
        a.exclude_hv        = 1;
        a.exclude_callchain_kernel = 1;
        a.mmap = a.mmap2 = a.comm = a.task = a.sample_id_all = 1;
        a.use_clockid       = 1;
        a.clockid           = CLOCK_MONOTONIC;
        a.wakeup_events     = 16;
        for(long c = 0; c < ncpu; ++c)
        {
            fds[c] = (int) syscall(SYS_perf_event_open, &a, p, (int) c, -1, PERF_FLAG_FD_CLOEXEC);
            if(fds[c] < 0)
            {
                perror("perf_event_open");
                exit(2);
            }
            maps[c] = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fds[c], 0);
            if(maps[c] == MAP_FAILED)
            {
                perror("mmap");
                exit(2);
            }
        }
    }
    if(write(go, "g", 1) != 1) exit(1);
    double t = 0;
    for(;;)
    {
        /* empty the rings (as the collector's reader does), then see whether the child is done */
        for(long c = 0; freq > 0 && c < ncpu; ++c)
        {
            struct perf_event_mmap_page* m = maps[c];
            uint64_t head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE);
            __atomic_store_n(&m->data_tail, head, __ATOMIC_RELEASE);
        }
        struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL);
        int st;
        if(waitpid(p, &st, WNOHANG) == p) break;
    }
    if(read(res, &t, sizeof t) != sizeof t) exit(1);
    for(long c = 0; freq > 0 && c < ncpu; ++c)
    {
        munmap(maps[c], len);
        close(fds[c]);
    }
    close(go);
    close(res);
    free(fds);
    free(maps);
    return t;
}

static int cmp(const void* a, const void* b)
{
    double x = *(const double*) a, y = *(const double*) b;
    return (x > y) - (x < y);
}

int main(int argc, char** argv)
{
    long freq   = argc > 1 ? atol(argv[1]) : 1000;
    long rounds = argc > 2 ? atol(argv[2]) : 120;
    int  reps   = argc > 3 ? atoi(argv[3]) : 5;
    double base[64], samp[64];
    run(rounds / 4, 0);
    for(int i = 0; i < reps && i < 64; ++i)
    {
        base[i] = run(rounds, 0);
        samp[i] = run(rounds, freq);
    }
    qsort(base, reps, sizeof(double), cmp);
    qsort(samp, reps, sizeof(double), cmp);
    double b = base[reps / 2], s = samp[reps / 2];
    printf("perf_sample_cost: freq=%ld Hz work CPU %.4f s unsampled, %.4f s sampled (medians of %d): %+.2f %%\n",
           freq, b, s, reps, (s / b - 1) * 100);
    return 0;
}
