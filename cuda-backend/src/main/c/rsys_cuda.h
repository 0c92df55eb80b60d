/*
 * What the files of librocprof-sys-cuda.so share (every symbol here has hidden visibility):
 * rsys_cuda.c (injection, CUPTI loading, API/NVTX callbacks, activity buffers) and
 * rsys_cuda_counters.c (per-kernel metrics through CUPTI's range profiler, and the metric
 * catalog rocprof-sys-avail lists).
 */
#ifndef RSYS_CUDA_H
#define RSYS_CUDA_H

#include "rocprofsys_wire.h"

#include <cupti.h>
#include <stdint.h>

/* the agent's GPU entry point (NULL: no session, the library stays dormant) */
extern int (*agent_record)(uint32_t, uint32_t, const struct rocprofsys_gpu_part *, uint32_t);
/* the loaded libcupti */
extern void *cupti;

/* ROCPROFSYS_AGENT_CUDA_VERBOSE=1 */
extern int verbose;

void notice(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *result_text(CUptiResult r);
uint64_t CUPTIAPI monotonic_ns(void);

/* rsys_cuda_counters.c */
/* ROCPROFSYS_AGENT_CUDA_EVENTS: resolves the profiler API and asks `subscriber` for the driver's
 * kernel launch callbacks; returns 0 (after one notice) when counters cannot be collected. */
int counters_setup(CUpti_SubscriberHandle subscriber);
/* a driver API callback of a kernel launch (any cbid: others are ignored) */
void counters_on_driver_api(CUpti_CallbackId cbid, const CUpti_CallbackData *d);
/* collects and writes every context's pending ranges; `final`: the profiler is not restarted */
void counters_flush(int final);
/* the resource callback of a context creation */
void counters_on_context_created(void);
/* whether counters are collected in this process */
extern int counters_on;

#endif
