/* Prints the bytes of a struct perf_event_attr filled through the system header's own field
 * names, so PerfEventAttrTest can compare them with PerfEventAttr.toSegment(). */
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.type = PERF_TYPE_SOFTWARE;
    a.size = PERF_ATTR_SIZE_VER7;
    a.config = PERF_COUNT_SW_TASK_CLOCK;
    a.sample_freq = 997;
    a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN
            | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_REGS_USER
            | PERF_SAMPLE_STACK_USER;
    a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
    a.disabled = 1;
    a.inherit = 1;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    a.mmap = 1;
    a.comm = 1;
    a.freq = 1;
    a.enable_on_exec = 1;
    a.task = 1;
    a.sample_id_all = 1;
    a.exclude_callchain_kernel = 1;
    a.mmap2 = 1;
    a.comm_exec = 1;
    a.use_clockid = 1;
    a.wakeup_events = 7;
    a.sample_regs_user = 0xff01ffUL;
    a.sample_stack_user = 8192;
    a.clockid = 1; /* CLOCK_MONOTONIC */
    a.sample_max_stack = 127;
    const unsigned char *b = (const unsigned char *) &a;
    for (unsigned i = 0; i < PERF_ATTR_SIZE_VER7; i++) {
        printf("%02x", b[i]);
    }
    printf("\n");
    return 0;
}
