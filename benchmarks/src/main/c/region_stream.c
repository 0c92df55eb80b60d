/*
 * Writes `events` region events (begin and end records) through the user API as fast as it can:
 * three nested levels of regions drawn from 4, 8 and 8 names, i.e. 292 distinct call paths, six
 * events per outer iteration. Used two ways:
 *
 *   benchmark 5 (collector memory) and the end-to-end ingest figure of benchmark 2:
 *     ROCPROFSYS_RING_BUFFER_LOSSLESS=ON rocprof-sys-run -- region_stream 50000000 5000000,25000000,50000000
 *     At each checkpoint (events written so far) it prints one line with the collector's (its
 *     parent's) VmRSS and VmHWM and the CPU time of the collector's draining thread.
 *   benchmark 2 (in-process ingest): with the agent preloaded and a session directory but no
 *     collector, it fills its ring; the JMH benchmark then maps the file and drains it.
 *
 * Output: key=value lines on stdout.
 */
#include <rocprofiler-systems/user.h>

#include "bench_common.h"
#include "rsys_region_pattern.h"

static const char *const outer[4] = {"outer_0", "outer_1", "outer_2", "outer_3"};
static const char *const middle[8] = {"middle_0", "middle_1", "middle_2", "middle_3",
                                      "middle_4", "middle_5", "middle_6", "middle_7"};
static const char *const inner[8] = {"inner_00", "inner_01", "inner_02", "inner_03",
                                     "inner_04", "inner_05", "inner_06", "inner_07"};

#define MAX_CHECKPOINTS 64

int main(int argc, char **argv)
{
    long long events = argc > 1 ? atoll(argv[1]) : 6000000LL;
    long long checkpoints[MAX_CHECKPOINTS];
    int ncp = 0;
    if (argc > 2) {
        char *s = argv[2];
        while (*s && ncp < MAX_CHECKPOINTS) {
            checkpoints[ncp++] = strtoll(s, &s, 10);
            if (*s == ',') {
                s++;
            }
        }
    }
    if (events <= 0) {
        fprintf(stderr, "usage: region_stream [events] [checkpoint,checkpoint,...]\n");
        return 2;
    }
    int bound = rocprofsys_user_push_region("region_stream") == ROCPROFSYS_USER_SUCCESS;
    const volatile struct rsys_ring_header *ring = bench_own_ring(NULL);
    int collector = getppid();
    int drain_tid = 0;
    for (int i = 0; i < 100 && drain_tid == 0 && ncp > 0; i++) {
        drain_tid = bench_find_thread(collector, "rocprof-sys-col"); /* "rocprof-sys-collector", cut */
        if (drain_tid == 0) {
            usleep(10000);
        }
    }
    printf("bound=%d\n", bound);
    printf("collector_pid=%d\n", collector);
    printf("collector_thread=%d\n", drain_tid);
    printf("start collector_cpu_s=%.3f collector_rss_kb=%ld\n", drain_tid > 0 ? bench_thread_cpu_s(collector, drain_tid) : -1.0,
           bench_status_kb(collector, "VmRSS"));
    fflush(stdout);

    uint64_t t0 = bench_now_ns();
    long long written = 0;
    int next = 0;
    for (unsigned long j = 0; written < events; j++) {
        rsys_region_pattern(outer, middle, inner, j);
        written += 6;
        while (next < ncp && written >= checkpoints[next]) {
            double wall = (double)(bench_now_ns() - t0) / 1e9;
            printf("checkpoint events=%lld wall_s=%.3f collector_rss_kb=%ld collector_hwm_kb=%ld "
                   "collector_cpu_s=%.3f collector_process_cpu_s=%.3f\n",
                   written, wall, bench_status_kb(collector, "VmRSS"), bench_status_kb(collector, "VmHWM"),
                   drain_tid > 0 ? bench_thread_cpu_s(collector, drain_tid) : -1.0, bench_thread_cpu_s(collector, 0));
            fflush(stdout);
            next++;
        }
    }
    uint64_t t1 = bench_now_ns();
    rocprofsys_user_pop_region("region_stream");
    printf("events=%lld\n", written);
    printf("wall_s=%.3f\n", (double)(t1 - t0) / 1e9);
    printf("events_per_s=%.0f\n", (double)written / ((double)(t1 - t0) / 1e9));
    printf("records_dropped=%lld\n", bench_dropped(ring));
    return 0;
}
