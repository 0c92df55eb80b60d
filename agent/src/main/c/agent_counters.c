/*
 * CPU counters read with regions (RSYS_METRIC_COUNTERS): each thread opens the events of
 * ROCPROFSYS_AGENT_COUNTERS as one perf group counting that thread only, in user space (in the
 * kernel too for a pair marked ":k", an event such as a context switch that happens there), and a
 * region record carries the group's raw values at that moment (one read() for all of them). The
 * collector resolved the names (PAPI's or perf's) to perf type:config pairs and checked that this
 * machine accepts them; here a thread that cannot open its group records all ones (absent).
 */
#include "rsys_agent.h"

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

void rsys_counters_init(void)
{
    rsys_g.ncounters = 0;
    const char *s = getenv("ROCPROFSYS_AGENT_COUNTERS");
    while (s != NULL && *s && rsys_g.ncounters < RSYS_MAX_COUNTERS) {
        char *end;
        if (*s == '-') {
            /* a counter the collector refused: its slot is recorded absent */
            rsys_g.counter_type[rsys_g.ncounters] = RSYS_COUNTER_NONE;
            rsys_g.counter_config[rsys_g.ncounters] = 0;
            rsys_g.ncounters++;
            s = s[1] == ',' ? s + 2 : s + 1;
            continue;
        }
        unsigned long type = strtoul(s, &end, 10);
        if (end == s || *end != ':') {
            break;
        }
        s = end + 1;
        unsigned long long config = strtoull(s, &end, 10);
        if (end == s) {
            break;
        }
        rsys_g.counter_type[rsys_g.ncounters] = (uint32_t)type;
        rsys_g.counter_config[rsys_g.ncounters] = (uint64_t)config;
        /* ":k": an event that happens in the kernel (a context switch), counted there too */
        rsys_g.counter_kernel[rsys_g.ncounters] = end[0] == ':' && end[1] == 'k';
        if (rsys_g.counter_kernel[rsys_g.ncounters]) {
            end += 2;
        }
        rsys_g.ncounters++;
        s = *end == ',' ? end + 1 : end;
    }
    /* the counters named are recorded with every region */
    rsys_g.metrics = (rsys_g.metrics & ~RSYS_METRIC_COUNTERS) | (((1u << rsys_g.ncounters) - 1u) << 16);
}

static int rsys_perf_open(uint32_t type, uint64_t config, int kernel, int group)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = type;
    a.config = config;
    a.read_format = PERF_FORMAT_GROUP;
    a.exclude_kernel = kernel ? 0 : 1;
    a.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &a, 0 /* this thread */, -1, group, PERF_FLAG_FD_CLOEXEC);
}

/* counter_fd[0..members) are the group's events, in slot order without the absent slots */
static uint32_t rsys_counter_members(void)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < rsys_g.ncounters; i++) {
        m += rsys_g.counter_type[i] != RSYS_COUNTER_NONE;
    }
    return m;
}

static void rsys_counters_open(struct rsys_tls *t)
{
    t->counter_pid = rsys_g.pid;
    t->counter_fd[0] = -1;
    uint32_t m = 0;
    for (uint32_t i = 0; i < rsys_g.ncounters; i++) {
        if (rsys_g.counter_type[i] == RSYS_COUNTER_NONE) {
            continue;
        }
        int fd = rsys_perf_open(rsys_g.counter_type[i], rsys_g.counter_config[i], rsys_g.counter_kernel[i],
                                m == 0 ? -1 : t->counter_fd[0]);
        if (fd < 0) {
            for (uint32_t j = 0; j < m; j++) {
                close(t->counter_fd[j]);
            }
            t->counter_fd[0] = -1;
            return;
        }
        t->counter_fd[m++] = fd;
    }
}

/* The calling thread's group, opened once per process (a thread's first record, from rsys_attach). */
void rsys_counters_attach(struct rsys_tls *t)
{
    if (t->counter_pid == rsys_g.pid) {
        return;
    }
    if (t->counter_pid != 0 && t->counter_fd[0] >= 0) {
        for (uint32_t i = 0, m = rsys_counter_members(); i < m; i++) {
            close(t->counter_fd[i]); /* the parent's, inherited by this fork child */
        }
    }
    rsys_counters_open(t);
}

void rsys_counters_read(struct rsys_tls *t, uint64_t *v)
{
    uint32_t n = rsys_g.ncounters;
    if (RSYS_UNLIKELY(t->counter_pid != rsys_g.pid)) {
        rsys_counters_attach(t);
    }
    uint64_t buf[1 + RSYS_MAX_COUNTERS];
    uint32_t m = rsys_counter_members();
    ssize_t want = (ssize_t)(8u * (1u + m));
    if (m != 0 && t->counter_fd[0] >= 0 && read(t->counter_fd[0], buf, (size_t)want) == want && buf[0] == m) {
        for (uint32_t i = 0, j = 1; i < n; i++) {
            v[i] = rsys_g.counter_type[i] == RSYS_COUNTER_NONE ? ~(uint64_t)0 : buf[j++];
        }
        return;
    }
    memset(v, 0xff, 8u * n);
}

/* Thread end: the events count nothing more for it. */
void rsys_counters_close(struct rsys_tls *t)
{
    if (t->counter_pid == rsys_g.pid && t->counter_fd[0] >= 0) {
        for (uint32_t i = rsys_counter_members(); i-- > 0;) {
            close(t->counter_fd[i]);
        }
    }
    t->counter_fd[0] = -1;
}
