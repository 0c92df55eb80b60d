/*
 * Lifecycle of the agent: the ring file of this process image (constructor), fork children,
 * and the exit path (atexit handler, destructor, exit/_exit and main-return wrappers).
 * Dormant unless ROCPROFSYS_SESSION_DIR is set.
 */
#include "rsys_agent.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

RSYS_HIDDEN void rsys_thread_exit(void *unused);           /* agent_threads.c */
RSYS_HIDDEN void rsys_threads_init(void);                  /* agent_threads.c */
RSYS_HIDDEN void rsys_timers_before_exec(void);            /* agent_timer.c */
RSYS_HIDDEN void rsys_timers_after_failed_exec(void);      /* agent_timer.c */
extern pthread_key_t rsys_thread_key RSYS_HIDDEN;
extern int rsys_thread_key_ok RSYS_HIDDEN;

typedef void (*rsys_exit_fn)(int);
typedef pid_t (*rsys_fork_fn)(void);
typedef int (*rsys_main_fn)(int, char **, char **);
typedef int (*rsys_start_main_fn)(rsys_main_fn, int, char **, void (*)(void), void (*)(void),
                                  void (*)(void), void *);

static rsys_exit_fn real_exit;
static rsys_exit_fn real__exit;
static rsys_exit_fn real__Exit;
static rsys_fork_fn real_fork;
static rsys_main_fn real_main;

static void *rsys_next(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

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
    rsys_g.metrics = (uint32_t)rsys_env_u64("ROCPROFSYS_AGENT_METRICS", 0) &
                     (RSYS_METRIC_THREAD_CPU | RSYS_METRIC_RSS | RSYS_METRIC_PEAK_RSS);
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
    if (rsys_g.metrics & RSYS_METRIC_RSS) {
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

static void rsys_read_cmdline(struct rsys_file_header *h)
{
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return;
    }
    size_t got = 0;
    while (got < RSYS_CMDLINE_CAPACITY) {
        ssize_t n = read(fd, h->cmdline + got, RSYS_CMDLINE_CAPACITY - got);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        got += (size_t)n;
    }
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
        if (t->is_main) {
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
    if (rsys_open_file(parent) == 0) {
        rsys_start_main_thread(inherited);
        rsys_instr_fork_child_end();
    }
}

__attribute__((constructor)) static void rsys_ctor(void)
{
    real_exit = (rsys_exit_fn)rsys_next("exit");
    real__exit = (rsys_exit_fn)rsys_next("_exit");
    real__Exit = (rsys_exit_fn)rsys_next("_Exit");
    real_fork = (rsys_fork_fn)rsys_next("fork");
    rsys_threads_init();

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
    rsys_thread_key_ok = pthread_key_create(&rsys_thread_key, rsys_thread_exit) == 0;
    if (rsys_open_file(0) != 0) {
        return;
    }
    rsys_g.enabled = 1;
    pthread_atfork(NULL, NULL, rsys_atfork_child);
    atexit(rsys_atexit);
    rsys_start_main_thread(0);
    rsys_instr_init();
}

/* ---------------------------------------------------------------------------------------------
 * Wrappers (exported so that they interpose libc's)
 */
static int rsys_is_ours(void)
{
    return rsys_g.enabled && (int)getpid() == rsys_g.pid;
}

static int rsys_main_wrapper(int argc, char **argv, char **envp)
{
    if (rsys_is_ours()) {
        rsys_timers_main_begins();
    }
    int rc = real_main(argc, argv, envp);
    if (rsys_is_ours()) {
        rsys_g.exit_code = rc;
        rsys_g.exit_code_known = 1;
    }
    return rc;
}

/* Wrapping main through the C runtime start lets us record main's return value as exit_code. */
RSYS_EXPORT int __libc_start_main(rsys_main_fn main, int argc, char **argv, void (*init)(void),
                                  void (*fini)(void), void (*rtld_fini)(void), void *stack_end)
{
    rsys_start_main_fn real = (rsys_start_main_fn)rsys_next("__libc_start_main");
    if (real == NULL) {
        abort();
    }
    real_main = main; /* always: the agent may be a constructor that has not run yet */
    return real(rsys_main_wrapper, argc, argv, init, fini, rtld_fini, stack_end);
}

RSYS_EXPORT __attribute__((noreturn)) void exit(int status)
{
    if (rsys_is_ours()) {
        rsys_g.exit_code = status;
        rsys_g.exit_code_known = 1;
    }
    if (real_exit == NULL) {
        real_exit = (rsys_exit_fn)rsys_next("exit");
    }
    if (real_exit != NULL) {
        real_exit(status);
    }
    syscall(SYS_exit_group, status);
    __builtin_unreachable();
}

static __attribute__((noreturn)) void rsys_quick_exit(rsys_exit_fn *real, const char *name,
                                                      int status)
{
    if (rsys_is_ours()) {
        rsys_g.exit_code = status;
        rsys_g.exit_code_known = 1;
        rsys_finalize();
    }
    if (*real == NULL) {
        *real = (rsys_exit_fn)rsys_next(name);
    }
    if (*real != NULL) {
        (*real)(status);
    }
    syscall(SYS_exit_group, status);
    __builtin_unreachable();
}

RSYS_EXPORT __attribute__((noreturn)) void _exit(int status)
{
    rsys_quick_exit(&real__exit, "_exit", status);
}

RSYS_EXPORT __attribute__((noreturn)) void _Exit(int status)
{
    rsys_quick_exit(&real__Exit, "_Exit", status);
}

/* fork: the parent records FORK with the child's pid (the atfork child handler does the rest). */
RSYS_EXPORT pid_t fork(void)
{
    if (real_fork == NULL) {
        real_fork = (rsys_fork_fn)rsys_next("fork");
    }
    pid_t pid = real_fork();
    if (pid > 0 && rsys_g.enabled) {
        rsys_simple(RSYS_REC_FORK, 0, (int32_t)pid, 0, 1);
    }
    return pid;
}

/*
 * exec: every sampling timer is deleted and pending timer signals are discarded first (the new
 * image would die of one: its disposition is the default again). glibc's own exec variants call
 * execve internally, not through this symbol, so each entry point is wrapped (the execl family
 * through execve / execvp with the arguments gathered; fexecve and posix_spawn are not wrapped:
 * a posix_spawn child has no timers anyway).
 */
typedef int (*rsys_execve_fn)(const char *, char *const[], char *const[]);
typedef int (*rsys_execv_fn)(const char *, char *const[]);

static void rsys_before_exec(void)
{
    if (rsys_is_ours()) {
        rsys_timers_before_exec();
    }
}

static int rsys_after_exec(int rc)
{
    int saved = errno;
    if (rsys_is_ours()) {
        rsys_timers_after_failed_exec();
    }
    errno = saved;
    return rc;
}

RSYS_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
    static rsys_execve_fn real;
    if (real == NULL) {
        real = (rsys_execve_fn)rsys_next("execve");
    }
    rsys_before_exec();
    return rsys_after_exec(real(path, argv, envp));
}

RSYS_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
    static rsys_execve_fn real;
    if (real == NULL) {
        real = (rsys_execve_fn)rsys_next("execvpe");
    }
    rsys_before_exec();
    return rsys_after_exec(real(file, argv, envp));
}

RSYS_EXPORT int execv(const char *path, char *const argv[])
{
    static rsys_execv_fn real;
    if (real == NULL) {
        real = (rsys_execv_fn)rsys_next("execv");
    }
    rsys_before_exec();
    return rsys_after_exec(real(path, argv));
}

RSYS_EXPORT int execvp(const char *file, char *const argv[])
{
    static rsys_execv_fn real;
    if (real == NULL) {
        real = (rsys_execv_fn)rsys_next("execvp");
    }
    rsys_before_exec();
    return rsys_after_exec(real(file, argv));
}

/* Counts the arguments after arg0 up to the NULL, then gathers them into argv. */
#define RSYS_GATHER_ARGS(arg0, last, argv, extra)                                                    \
    size_t rsys_n = 1;                                                                             \
    {                                                                                              \
        va_list rsys_ap;                                                                           \
        va_start(rsys_ap, last);                                                                   \
        while (va_arg(rsys_ap, const char *) != NULL) {                                            \
            rsys_n++;                                                                              \
        }                                                                                          \
        va_end(rsys_ap);                                                                           \
    }                                                                                              \
    char *argv[rsys_n + 1];                                                                        \
    extra;                                                                                         \
    {                                                                                              \
        va_list rsys_ap;                                                                           \
        va_start(rsys_ap, last);                                                                   \
        argv[0] = (char *)(arg0);                                                                  \
        for (size_t rsys_i = 1; rsys_i <= rsys_n; rsys_i++) {                                      \
            argv[rsys_i] = va_arg(rsys_ap, char *);                                                \
        }                                                                                          \
        va_end(rsys_ap);                                                                           \
    }

RSYS_EXPORT int execl(const char *path, const char *arg, ...)
{
    RSYS_GATHER_ARGS(arg, arg, argv, (void)0)
    return execv(path, argv);
}

RSYS_EXPORT int execlp(const char *file, const char *arg, ...)
{
    RSYS_GATHER_ARGS(arg, arg, argv, (void)0)
    return execvp(file, argv);
}

RSYS_EXPORT int execle(const char *path, const char *arg, ...)
{
    /* the environment pointer follows the NULL that ends the arguments */
    RSYS_GATHER_ARGS(arg, arg, argv, (void)0)
    char *const *envp;
    {
        va_list ap;
        va_start(ap, arg);
        for (size_t i = 1; i <= rsys_n; i++) {
            (void)va_arg(ap, char *);
        }
        envp = va_arg(ap, char *const *);
        va_end(ap);
    }
    return execve(path, argv, envp);
}
