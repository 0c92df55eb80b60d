/*
 * The training target of rocprof-sys-run's AOT cache (libexec/rocprofiler-systems/aot-cache.sh):
 * the JDK's AOT cache keeps the method profiles of the run that recorded it, and C2 compiles from
 * them. A cache recorded from a short first run (`rocprof-sys-run -- /bin/echo`) left the ingest
 * path to be profiled afresh in every later run, which then ran at 4.5-9.9 M records/s where a
 * cache recorded from a stream of regions ran at 11.5-12.6 (docs/benchmarks.md). So the cache is
 * recorded from this program, the same for every install: two threads pushing nested regions
 * through the user API, `events` region events in all (default 4 M).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <rocprofiler-systems/user.h>

#include "rsys_region_pattern.h"

static const char *const outer[4] = {"train_0", "train_1", "train_2", "train_3"};
static const char *const middle[8] = {"step_0", "step_1", "step_2", "step_3",
                                      "step_4", "step_5", "step_6", "step_7"};
static const char *const inner[8] = {"leaf_0", "leaf_1", "leaf_2", "leaf_3",
                                     "leaf_4", "leaf_5", "leaf_6", "leaf_7"};

static void *stream(void *arg)
{
    long long events = *(const long long *)arg;
    for (unsigned long j = 0; (long long)(6 * j) < events; j++) {
        rsys_region_pattern(outer, middle, inner, j);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    long long events = argc > 1 ? atoll(argv[1]) : 4000000LL;
    if (events <= 0) {
        fprintf(stderr, "usage: rocprof-sys-aot-train [events]\n");
        return 2;
    }
    long long half = events / 2;
    pthread_t other;
    if (pthread_create(&other, NULL, stream, &half) != 0) {
        stream(&events);
        return 0;
    }
    stream(&half);
    pthread_join(other, NULL);
    return 0;
}
