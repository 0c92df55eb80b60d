/*
 * Lifecycle of the agent: the ring file of this process image (constructor), fork children,
 * and the exit path (atexit handler, destructor; the exit code comes from agent_wrap.c's
 * exit/_exit and main-return wrappers).
 * Dormant unless ROCPROFSYS_SESSION_DIR is set.
 */
#include "rsys_agent.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static uint64_t rsys_env_u64(const char *name, uint64_t dflt)
{
    const char *v = getenv(name);
    if (v == NULL || *v == 0) {
        return dflt;
    }
    char *end = NULL;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 0);
    if (errno != 0 || end == v) {
        return dflt;
    }
    return (uint64_t)x;
}

static void rsys_read_settings(void)
{
    uint64_t kb = rsys_env_u64("ROCPROFSYS_AGENT_RING_KB", RSYS_DEFAULT_RING_KB);
    if (kb == 0 || kb > RSYS_MAX_RING_DATA_SIZE / 1024) {
        kb = kb == 0 ? RSYS_DEFAULT_RING_KB : RSYS_MAX_RING_DATA_SIZE / 1024;
    }
    uint64_t bytes = 1;
    while (bytes < kb * 1024) {
        bytes <<= 1;
    }
    if (bytes < RSYS_MIN_RING_DATA_SIZE) {
        bytes = RSYS_MIN_RING_DATA_SIZE;
    }
    rsys_g.ring_data_size = bytes;

    uint64_t rings = rsys_env_u64("ROCPROFSYS_AGENT_MAX_THREADS", RSYS_DEFAULT_MAX_RINGS);
    if (rings == 0) {
        rings = RSYS_DEFAULT_MAX_RINGS;
    }
    if (rings > RSYS_MAX_MAX_RINGS) {
        rings = RSYS_MAX_MAX_RINGS;
    }
    rsys_g.max_rings = (uint32_t)rings;
    rsys_g.lossless = rsys_env_u64("ROCPROFSYS_AGENT_LOSSLESS", 0) != 0;
    /* absent (a ring read by no collector: tests, benchmarks): drop at once, as before */
    uint64_t stall_ms = rsys_env_u64("ROCPROFSYS_AGENT_STALL_MS", 0);
    rsys_g.stall_ns = stall_ms > 3600000u ? 3600000000000ull : stall_ms * 1000000ull;
    rsys_g.metrics = (uint32_t)rsys_env_u64("ROCPROFSYS_AGENT_METRICS", 0) & RSYS_METRIC_ALL;
    rsys_g.thread_calls = (uint32_t)rsys_env_u64("ROCPROFSYS_AGENT_THREAD_CALLS", 0) &
                          (RSYS_THREAD_CALL_BARRIER | RSYS_THREAD_CALL_JOIN);
    rsys_counters_init();
    rsys_g.page_size = sysconf(_SC_PAGESIZE);
}

static size_t rsys_append(char *dst, size_t at, size_t cap, const char *s);

/* Whether a whole word of /proc/cpuinfo's first "flags" line is `flag`. */
static int rsys_has_flag(const char *line, const char *flag)
{
    size_t n = strlen(flag);
    for (const char *p = line; *p && *p != '\n'; p++) {
        if ((p == line || p[-1] == ' ' || p[-1] == '\t') && strncmp(p, flag, n) == 0 &&
            (p[n] == ' ' || p[n] == '\n' || p[n] == 0)) {
            return 1;
        }
    }
    return 0;
}

/* The TSC ticks at a constant rate (constant_tsc) that does not stop in deep C-states (nonstop_tsc). */
static int rsys_tsc_usable(void)
{
#if RSYS_HAVE_TSC
    static char buf[32768];
    int fd = open("/proc/cpuinfo", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return 0;
    }
    size_t got = 0;
    while (got < sizeof buf - 1) {
        ssize_t n = read(fd, buf + got, sizeof buf - 1 - got);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        got += (size_t)n;
        buf[got] = 0;
        if (strstr(buf, "\nflags") != NULL && strchr(strstr(buf, "\nflags") + 1, '\n') != NULL) {
            break; /* the first processor's flags line is complete */
        }
    }
    close(fd);
    buf[got] = 0;
    const char *flags = strstr(buf, "\nflags");
    if (flags == NULL || (flags = strchr(flags, ':')) == NULL) {
        return 0;
    }
    return rsys_has_flag(flags + 1, "constant_tsc") && rsys_has_flag(flags + 1, "nonstop_tsc");
#else
    return 0;
#endif
}

/* Chooses the record clock of this process (and its fork children): once, at init. */
static void rsys_pick_clock(void)
{
    uint32_t kind = RSYS_CLOCK_MONOTONIC_NS;
    const char *v = getenv("ROCPROFSYS_AGENT_CLOCK");
    if (rsys_test_clock_kind >= 0) {
        kind = (uint32_t)rsys_test_clock_kind;
    } else if ((v == NULL || strcmp(v, "monotonic") != 0) && rsys_tsc_usable()) {
        kind = RSYS_CLOCK_TSC;
    }
    rsys_g.clock_kind = kind;
    rsys_clock_rdtsc = RSYS_HAVE_TSC && kind == RSYS_CLOCK_TSC && rsys_test_clock == NULL;
}

/* The absolute path of this library, for the collector; empty when linked into the executable. */
static void rsys_find_agent_path(void)
{
    Dl_info info;
    struct link_map *map = NULL;
    rsys_g.agent_path[0] = 0;
    if (dladdr1((void *)&rsys_g, &info, (void **)&map, RTLD_DL_LINKMAP) == 0 || map == NULL ||
        map->l_name == NULL || map->l_name[0] == 0) {
        return;
    }
    char real[PATH_MAX];
    const char *path = realpath(map->l_name, real) != NULL ? real : map->l_name;
    if (path[0] == '/' && strlen(path) < RSYS_AGENT_PATH_CAPACITY) {
        rsys_append(rsys_g.agent_path, 0, sizeof rsys_g.agent_path, path);
    }
}

static void rsys_open_statm(void)
{
    if (rsys_g.statm_fd >= 0) {
        close(rsys_g.statm_fd);
        rsys_g.statm_fd = -1;
    }
    if (rsys_g.metrics & (RSYS_METRIC_RSS | RSYS_METRIC_VIRTUAL)) {
        rsys_g.statm_fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    }
}

static size_t rsys_append(char *dst, size_t at, size_t cap, const char *s)
{
    while (*s && at + 1 < cap) {
        dst[at++] = *s++;
    }
    dst[at] = 0;
    return at;
}

static size_t rsys_append_u(char *dst, size_t at, size_t cap, unsigned long v)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n > 0 && at + 1 < cap) {
        dst[at++] = tmp[--n];
    }
    dst[at] = 0;
    return at;
}

size_t rsys_read_full(int fd, void *buf, size_t cap)
{
    size_t got = 0;
    while (got < cap) {
        ssize_t n = read(fd, (char *)buf + got, cap - got);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        got += (size_t)n;
    }
    return got;
}

static void rsys_read_cmdline(struct rsys_file_header *h)
{
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return;
    }
    size_t got = rsys_read_full(fd, h->cmdline, RSYS_CMDLINE_CAPACITY);
    close(fd);
    if (got == RSYS_CMDLINE_CAPACITY) {
        h->cmdline[got - 1] = 0; /* cut: the last argument still ends with a NUL */
    }
    h->cmdline_size = (uint32_t)got;
}

/*
 * Creates and maps <dir>/<pid>.<gen>.ring, fills the header and publishes RUNNING.
 * Returns 0 on success. Uses no malloc (it also runs in fork children).
 */
static int rsys_open_file(int forked_from)
{
    int pid = (int)getpid();
    char path[4096 + 64];
    int fd = -1;
    uint32_t gen = 0;
    for (; gen < 100000; gen++) {
        size_t at = rsys_append(path, 0, sizeof path, rsys_g.session_dir);
        at = rsys_append(path, at, sizeof path, "/");
        at = rsys_append_u(path, at, sizeof path, (unsigned long)pid);
        at = rsys_append(path, at, sizeof path, ".");
        at = rsys_append_u(path, at, sizeof path, gen);
        rsys_append(path, at, sizeof path, ".ring");
        fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd >= 0 || errno != EEXIST) {
            break;
        }
    }
    if (fd < 0) {
        dprintf(2, "rocprof-sys: agent: cannot create a ring file in %s: %s\n", rsys_g.session_dir,
                strerror(errno));
        return -1;
    }
    size_t size = RSYS_FILE_HEADER_SIZE +
                  (size_t)rsys_g.max_rings * (RSYS_RING_HEADER_SIZE + rsys_g.ring_data_size);
    if (ftruncate(fd, (off_t)size) != 0) {
        dprintf(2, "rocprof-sys: agent: cannot size %s: %s\n", path, strerror(errno));
        close(fd);
        unlink(path);
        return -1;
    }
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        dprintf(2, "rocprof-sys: agent: cannot map %s: %s\n", path, strerror(errno));
        unlink(path);
        return -1;
    }
    struct rsys_file_header *h = (struct rsys_file_header *)p;
    h->magic = RSYS_WIRE_MAGIC;
    h->version = RSYS_WIRE_VERSION;
    h->header_size = RSYS_FILE_HEADER_SIZE;
    h->ring_header_size = RSYS_RING_HEADER_SIZE;
    h->max_rings = rsys_g.max_rings;
    h->ring_data_size = rsys_g.ring_data_size;
    h->pid = pid;
    h->ppid = (int32_t)getppid();
    h->forked_from = forked_from;
    h->exec_generation = gen;
    h->clock_kind = rsys_g.clock_kind;
    h->flags = rsys_g.lossless ? RSYS_FLAG_LOSSLESS : 0u;
    h->metrics = rsys_g.metrics;
    h->exit_code = -1;
    ssize_t n = readlink("/proc/self/exe", h->exe, RSYS_EXE_CAPACITY - 1);
    h->exe[n > 0 ? n : 0] = 0;
    rsys_read_cmdline(h);
    memcpy(h->agent_path, rsys_g.agent_path, sizeof h->agent_path);

    const char *base = h->exe;
    for (const char *c = h->exe; *c; c++) {
        if (*c == '/') {
            base = c + 1;
        }
    }
    rsys_append(rsys_g.main_name, 0, sizeof rsys_g.main_name, base);

    struct timespec rt;
    if (rsys_g.clock_kind == RSYS_CLOCK_TSC) {
        h->init_time = rsys_read_clock_pair(RSYS_PAIR_INIT, &h->init_monotonic_ns, 5);
    } else {
        h->init_time = rsys_now();
        h->init_monotonic_ns = h->init_time;
    }
    clock_gettime(CLOCK_REALTIME, &rt);
    h->init_realtime_ns = (uint64_t)rt.tv_sec * 1000000000ull + (uint64_t)rt.tv_nsec;

    rsys_append(rsys_g.ring_path, 0, sizeof rsys_g.ring_path, path);
    rsys_g.hdr = h;
    rsys_g.map_size = size;
    rsys_g.pid = pid;
    rsys_timers_dump_maps(); /* before RUNNING: the collector finds it with the ring file */
    __atomic_store_n(&h->state, RSYS_STATE_RUNNING, __ATOMIC_RELEASE);
    __atomic_store_n(&rsys_g.active, 1, __ATOMIC_RELEASE);
    return 0;
}

/* The calling thread becomes thread 0 and opens the main region (named after the executable). */
static void rsys_start_main_thread(uint32_t inherited_open)
{
    struct rsys_tls *t = &rsys_tls;
    memset(t, 0, sizeof *t);
    t->seq = 0;
    t->has_seq = 1;
    t->is_main = 1;
    t->phantom = inherited_open;
    if (rsys_attach(t)) {
        rsys_region_begin(ROCPROFSYS_CATEGORY_HOST, rsys_g.main_name, 1);
    }
}

/* Exit records: main region END, THREAD_END, exit_time, exit_code, state EXITED. Once. */
void rsys_finalize(void)
{
    if (!rsys_g.enabled || rsys_g.hdr == NULL || (int)getpid() != rsys_g.pid) {
        return; /* dormant, or a vfork child sharing our memory */
    }
    if (__atomic_exchange_n(&rsys_g.finalized, 1, __ATOMIC_ACQ_REL)) {
        return;
    }
    struct rsys_file_header *h = rsys_g.hdr;
    struct rsys_tls *t = &rsys_tls;
    rsys_timers_stop_all(); /* no sample signal during the exit path */
    rsys_timers_dump_maps(); /* what was loaded since init (dlopen) */
    rsys_gpu_finalize(); /* buffered GPU records before the exit records */
    if (t->state == RSYS_TS_ACTIVE) {
        if (t->is_main && rsys_g.main_rewritten) {
            /* as upstream's rewritten main, whose exit snippet finalizes the tool before main
             * returns: the main region is closed by the finalizer, under a name (argv[0]) other
             * than the one it was opened with (its basename), so it finds no component values to
             * end with */
            rsys_region_end_without_readings(ROCPROFSYS_CATEGORY_HOST, 1);
        } else if (t->is_main) {
            rsys_region_end(ROCPROFSYS_CATEGORY_HOST, 1);
        }
        rsys_write_thread_end(t);
    }
    __atomic_store_n(&rsys_g.active, 0, __ATOMIC_RELEASE);
    if (rsys_g.clock_kind == RSYS_CLOCK_TSC) {
        h->exit_time = rsys_read_clock_pair(RSYS_PAIR_EXIT, &h->exit_monotonic_ns, 5);
    } else {
        h->exit_time = rsys_now();
        h->exit_monotonic_ns = h->exit_time;
    }
    h->exit_code = rsys_g.exit_code_known ? rsys_g.exit_code : -1;
    __atomic_store_n(&h->state, RSYS_STATE_EXITED, __ATOMIC_RELEASE);
    rsys_ring_doorbell();
    rsys_instr_finalize();
}

static void rsys_atexit(void)
{
    rsys_finalize();
}

__attribute__((destructor)) static void rsys_dtor(void)
{
    rsys_finalize();
}

/*
 * Fork child: leave the parent's file alone (unmap it, never write), make our own, and go on
 * recording with the forking thread as thread 0. Regions the thread had open in the parent stay
 * "phantoms": their pops are not recorded, so nesting in the child's file stays consistent.
 */
static void rsys_atfork_child(void)
{
    if (!rsys_g.enabled) {
        return;
    }
    struct rsys_tls *t = &rsys_tls;
    int parent = rsys_g.pid;
    rsys_instr_fork_child_begin(); /* the entries of the parent's functions stop recording */
    uint32_t regions = t->depth > t->fdepth ? t->depth - t->fdepth : 0;
    uint32_t inherited = regions + t->skip + t->phantom;
    __atomic_store_n(&rsys_g.active, 0, __ATOMIC_RELAXED);
    if (rsys_g.hdr != NULL) {
        munmap(rsys_g.hdr, rsys_g.map_size);
        rsys_g.hdr = NULL;
    }
    memset(t, 0, sizeof *t);
    rsys_g.next_seq = 1;
    rsys_g.finalized = 0;
    rsys_g.exit_code_known = 0;
    rsys_g.exit_code = -1;
    rsys_open_statm();
    rsys_timers_atfork_child();
    if (rsys_collector_orphaned()) {
        return; /* the parent records nothing more: nor does its child */
    }
    if (rsys_open_file(parent) == 0) {
        rsys_start_main_thread(inherited);
        rsys_instr_fork_child_end();
        rsys_liveness_atfork_child();
    }
}

__attribute__((constructor)) static void rsys_ctor(void)
{
    rsys_wrap_init();

    const char *dir = getenv("ROCPROFSYS_SESSION_DIR");
    if (dir == NULL || *dir == 0 || strlen(dir) >= sizeof rsys_g.session_dir) {
        return;
    }
    rsys_append(rsys_g.session_dir, 0, sizeof rsys_g.session_dir, dir);
    rsys_read_settings();
    rsys_timers_init();
    rsys_pick_clock();
    rsys_find_agent_path();
    rsys_open_statm();
    rsys_threads_init();
    if (rsys_open_file(0) != 0) {
        return;
    }
    rsys_g.enabled = 1;
    rsys_liveness_init();
    pthread_atfork(NULL, NULL, rsys_atfork_child);
    atexit(rsys_atexit);
    rsys_start_main_thread(0);
    rsys_instr_init();
}

/* Enabled, and the process whose file this is (not a vfork child sharing our memory). */
int rsys_is_ours(void)
{
    return rsys_g.enabled && (int)getpid() == rsys_g.pid;
}

void rsys_set_exit_code(int status)
{
    rsys_g.exit_code = status;
    rsys_g.exit_code_known = 1;
}
