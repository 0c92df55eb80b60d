/*
 * Whether the collector still runs, and what the agent does once it does not.
 *
 * The collector holds an fcntl write lock on <session dir>/collector.lock for as long as it runs
 * (Java's FileChannel.lock takes that kind) and writes "ended" into the file before it lets go at
 * the run's normal end. The kernel drops the lock however the collector dies (kill -9 too), so a
 * pid reused by another process cannot make a dead collector look alive.
 *
 * A thread that waits for room in a full ring asks (rsys_collector_check, at most every 10 ms):
 * waiting for room that nobody will make would stall the program for the stall time on every ring
 * (a 2 s program took 40 s), or for ever in lossless mode. Once the collector is gone the process
 * is orphaned (rsys_orphan): nothing more is recorded, the ring file is removed, and the program
 * runs on at full speed. With ROCPROFSYS_AGENT_EXIT_WITH_COLLECTOR a thread of the agent waits on
 * the lock instead (no polling, no CPU) and ends the program (SIGKILL) as soon as the collector
 * died; only this mode adds a thread to the program. A session directory without the lock at
 * init (the agent's own tests and benchmarks, which read the rings themselves) is never orphaned.
 */
#include "rsys_agent.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define RSYS_LIVENESS_PERIOD_NS 10000000ull

/* What the lock file says of the collector. */
enum rsys_collector_state { RSYS_COLLECTOR_ALIVE, RSYS_COLLECTOR_ENDED, RSYS_COLLECTOR_DIED };

static int rsys_orphaned;           /* atomic: the collector is gone, nothing more is recorded */
static uint64_t rsys_last_check_ns; /* atomic: when a thread last asked */
static int rsys_exit_with_collector;
static int rsys_has_collector;      /* the lock was there at init: a collector reads the rings (the
                                       agent's own tests and benchmarks run without one) */
static int rsys_watch_fd = -1;      /* the watcher's descriptor of the lock file (exit mode) */

static int rsys_open_lock(void)
{
    char path[sizeof rsys_g.session_dir + 32];
    size_t n = strlen(rsys_g.session_dir);
    memcpy(path, rsys_g.session_dir, n);
    memcpy(path + n, "/" RSYS_COLLECTOR_LOCK, sizeof "/" RSYS_COLLECTOR_LOCK);
    return open(path, O_RDONLY | O_CLOEXEC);
}

/*
 * The lock is free: "ended" in the file, or the file removed (the collector removes its directory
 * before it lets go): the collector ended the run; else it died.
 */
static enum rsys_collector_state rsys_ended_or_died(int fd)
{
    char b[8];
    if (pread(fd, b, sizeof b, 0) > 0) {
        return RSYS_COLLECTOR_ENDED;
    }
    int again = rsys_open_lock();
    if (again < 0) {
        return RSYS_COLLECTOR_ENDED;
    }
    close(again);
    return RSYS_COLLECTOR_DIED;
}

static enum rsys_collector_state rsys_collector_state(void)
{
    int fd = rsys_open_lock();
    if (fd < 0) {
        /* no file: the run ended and removed its directory; anything else: cannot tell */
        return errno == ENOENT ? RSYS_COLLECTOR_ENDED : RSYS_COLLECTOR_ALIVE;
    }
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    enum rsys_collector_state s = RSYS_COLLECTOR_ALIVE;
    if (fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type == F_UNLCK) {
        s = rsys_ended_or_died(fd);
    }
    close(fd); /* this process holds no lock on the file, so closing drops none */
    return s;
}

int rsys_collector_orphaned(void)
{
    return __atomic_load_n(&rsys_orphaned, __ATOMIC_ACQUIRE);
}

void rsys_orphan(void)
{
    if (__atomic_exchange_n(&rsys_orphaned, 1, __ATOMIC_ACQ_REL)) {
        return;
    }
    /* no new ring, no timer sample, no pthread-call region from here on (they all ask active) */
    __atomic_store_n(&rsys_g.active, 0, __ATOMIC_RELEASE);
    if (rsys_g.ring_path[0] != 0 && rsys_g.pid == (int)getpid()) {
        unlink(rsys_g.ring_path);
        rsys_g.ring_path[0] = 0; /* the doorbell touches it no more */
    }
    if (rsys_g.hdr != NULL) {
        /* the pages written so far go back to tmpfs; a record still being written lands in a fresh
         * zero page, which nobody reads */
        madvise(rsys_g.hdr, rsys_g.map_size, MADV_REMOVE);
    }
}

int rsys_collector_check(void)
{
    if (rsys_collector_orphaned()) {
        return 1;
    }
    if (!rsys_has_collector) {
        return 0;
    }
    uint64_t now = rsys_monotonic_ns();
    uint64_t last = __atomic_load_n(&rsys_last_check_ns, __ATOMIC_RELAXED);
    if (now - last < RSYS_LIVENESS_PERIOD_NS ||
        !__atomic_compare_exchange_n(&rsys_last_check_ns, &last, now, 0, __ATOMIC_RELAXED,
                                     __ATOMIC_RELAXED)) {
        return 0; /* asked lately, or another thread asks now */
    }
    enum rsys_collector_state s = rsys_collector_state();
    if (s == RSYS_COLLECTOR_ALIVE) {
        return 0;
    }
    if (s == RSYS_COLLECTOR_DIED && rsys_exit_with_collector) {
        kill(getpid(), SIGKILL);
    }
    rsys_orphan();
    return 1;
}

/* Exit mode: waits for the collector's lock (no CPU while it holds it), then acts at once. */
static void *rsys_watch(void *arg)
{
    int fd = (int)(intptr_t)arg;
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_RDLCK;
    fl.l_whence = SEEK_SET;
    while (fcntl(fd, F_SETLKW, &fl) != 0) {
        if (errno != EINTR) {
            return NULL; /* cannot wait on it (the program closed our descriptor): the rings ask */
        }
    }
    if (rsys_ended_or_died(fd) == RSYS_COLLECTOR_DIED) {
        kill(getpid(), SIGKILL);
    }
    rsys_orphan(); /* the run ended and left this process running: nobody reads its rings */
    return NULL;
}

static void rsys_start_watch(void)
{
    if (!rsys_exit_with_collector) {
        return;
    }
    if (rsys_watch_fd >= 0) {
        close(rsys_watch_fd); /* a fork child's copy of the parent's: its watcher is not here */
    }
    rsys_watch_fd = rsys_open_lock();
    if (rsys_watch_fd < 0) {
        return;
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 64 * 1024);
    /* the program's signals never go to this thread: it starts with every signal blocked */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_t th;
    if (rsys_real_pthread_create(&th, &attr, rsys_watch, (void *)(intptr_t)rsys_watch_fd) != 0) {
        close(rsys_watch_fd);
        rsys_watch_fd = -1;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
}

void rsys_liveness_init(void)
{
    const char *v = getenv("ROCPROFSYS_AGENT_EXIT_WITH_COLLECTOR");
    rsys_exit_with_collector = v != NULL && v[0] == '1';
    int fd = rsys_open_lock();
    rsys_has_collector = fd >= 0;
    if (fd >= 0) {
        close(fd);
        rsys_start_watch();
    }
}

void rsys_liveness_atfork_child(void)
{
    __atomic_store_n(&rsys_last_check_ns, 0, __ATOMIC_RELAXED);
    if (rsys_has_collector && !rsys_collector_orphaned()) {
        rsys_start_watch();
    }
}
