/*
 * Helpers shared by the C benchmarks: a monotonic clock, /proc readers for the collector (the
 * parent process when the program runs under rocprof-sys-run) and read access to this thread's
 * ring header in the agent's shared-memory file (for its dropped-record counter).
 *
 * Every figure is printed as `key=value` on one line so that org.rocprofsys.benchmarks.Main can
 * parse it; anything else goes to stderr.
 */
#ifndef ROCPROFSYS_BENCH_COMMON_H
#define ROCPROFSYS_BENCH_COMMON_H

#include "rocprofsys_wire.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static inline uint64_t bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A "Key:   123 kB" line of /proc/<pid>/status, in kB; -1 when absent. */
static inline long bench_status_kb(int pid, const char *key)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return -1;
    }
    long v = -1;
    size_t klen = strlen(key);
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
            v = strtol(line + klen + 1, NULL, 10);
            break;
        }
    }
    fclose(f);
    return v;
}

/* The thread of `pid` whose comm starts with `prefix` (comm is cut at 15 bytes); 0 if none. */
static inline int bench_find_thread(int pid, const char *prefix)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *d = opendir(path);
    if (d == NULL) {
        return 0;
    }
    int found = 0;
    struct dirent *e;
    while (!found && (e = readdir(d)) != NULL) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') {
            continue;
        }
        char cpath[320], comm[64] = {0};
        snprintf(cpath, sizeof cpath, "/proc/%d/task/%s/comm", pid, e->d_name);
        FILE *f = fopen(cpath, "r");
        if (f == NULL) {
            continue;
        }
        if (fgets(comm, sizeof comm, f) && strncmp(comm, prefix, strlen(prefix)) == 0) {
            found = atoi(e->d_name);
        }
        fclose(f);
    }
    closedir(d);
    return found;
}

/* utime + stime of one thread, in seconds (clock-tick resolution, usually 10 ms); -1 if unknown.
 * tid 0: of the whole process (every thread). */
static inline double bench_thread_cpu_s(int pid, int tid)
{
    if (tid < 0) {
        return -1;
    }
    char path[96], buf[1024];
    if (tid == 0) {
        snprintf(path, sizeof path, "/proc/%d/stat", pid);
    } else {
        snprintf(path, sizeof path, "/proc/%d/task/%d/stat", pid, tid);
    }
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return -1;
    }
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    /* fields after the ")" closing comm: state(3) ... utime(14) stime(15) */
    char *p = strrchr(buf, ')');
    if (p == NULL) {
        return -1;
    }
    unsigned long long utime = 0, stime = 0;
    if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2) {
        return -1;
    }
    return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

/*
 * This thread's ring header in the agent's file <ROCPROFSYS_SESSION_DIR>/<pid>.0.ring, mapped
 * read-only; NULL when the program does not run under the agent or the thread has no ring yet.
 * Stores the ring's data size in *data_size when not NULL.
 */
static inline const volatile struct rsys_ring_header *bench_own_ring(uint64_t *data_size)
{
    const char *dir = getenv("ROCPROFSYS_SESSION_DIR");
    if (dir == NULL) {
        return NULL;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%d.0.ring", dir, (int)getpid());
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || (size_t)st.st_size < RSYS_FILE_HEADER_SIZE) {
        close(fd);
        return NULL;
    }
    unsigned char *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) {
        return NULL;
    }
    const struct rsys_file_header *h = (const struct rsys_file_header *)m;
    uint32_t claimed = __atomic_load_n(&h->rings_claimed, __ATOMIC_ACQUIRE);
    if (claimed > h->max_rings) {
        claimed = h->max_rings;
    }
    int tid = (int)syscall(SYS_gettid);
    for (uint32_t i = 0; i < claimed; i++) {
        const struct rsys_ring_header *r =
            (const struct rsys_ring_header *)(m + RSYS_FILE_HEADER_SIZE +
                                              (uint64_t)i * (RSYS_RING_HEADER_SIZE + h->ring_data_size));
        if (r->tid == tid) {
            if (data_size != NULL) {
                *data_size = h->ring_data_size;
            }
            return r;
        }
    }
    return NULL;
}

static inline long long bench_dropped(const volatile struct rsys_ring_header *r)
{
    return r == NULL ? -1 : (long long)__atomic_load_n(&r->dropped, __ATOMIC_ACQUIRE);
}

/*
 * Waits until the collector has consumed everything this thread's ring holds (tail == head), at
 * most `timeout_s` seconds; returns the seconds waited, or -1 on timeout or without a ring.
 */
static inline double bench_wait_drained(const volatile struct rsys_ring_header *r, double timeout_s)
{
    if (r == NULL) {
        return -1;
    }
    uint64_t t0 = bench_now_ns();
    while (__atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) != __atomic_load_n(&r->head, __ATOMIC_ACQUIRE)) {
        if ((double)(bench_now_ns() - t0) / 1e9 > timeout_s) {
            return -1;
        }
        usleep(1000);
    }
    return (double)(bench_now_ns() - t0) / 1e9;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median of n values (sorts them). */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
