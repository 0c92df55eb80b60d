/*
 * The agent's internal C API, exported by librocprof-sys.so under the names upstream's
 * librocprof-sys uses (source/lib/rocprof-sys/api.hpp), plus the trace-control entry points the
 * user library binds to. librocprof-sys-user.so finds these with dlsym(RTLD_DEFAULT, ...);
 * instrumentation calls push_trace/pop_trace. Every call only records (rocprofsys_wire.h); the
 * collector applies trace control and time windows.
 */
#ifndef ROCPROFSYS_AGENT_API_H
#define ROCPROFSYS_AGENT_API_H

#include <stddef.h>

#include "rocprofiler-systems/categories.h"

#ifdef __cplusplus
extern "C" {
#endif

/* user regions, category ROCPROFSYS_CATEGORY_USER; always return 0 */
int rocprofsys_push_region(const char *name);
int rocprofsys_pop_region(const char *name);

/* regions of any category, with optional annotations (recorded after the BEGIN / END) */
int rocprofsys_push_category_region(rocprofsys_category_t category, const char *name,
                                    rocprofsys_annotation_t *annotations, size_t count);
int rocprofsys_pop_category_region(rocprofsys_category_t category, const char *name,
                                   rocprofsys_annotation_t *annotations, size_t count);

/* instrumented functions, category ROCPROFSYS_CATEGORY_HOST */
void rocprofsys_push_trace(const char *name);
void rocprofsys_pop_trace(const char *name);

/* causal progress points: a MARK record, category ROCPROFSYS_CATEGORY_CAUSAL */
void rocprofsys_progress(const char *name);
void rocprofsys_annotated_progress(const char *name, rocprofsys_annotation_t *annotations,
                                   size_t count);

/* TRACE_CONTROL records: process scope (this thread and threads created later) / this thread */
int rocprofsys_start_trace(void);
int rocprofsys_stop_trace(void);
int rocprofsys_start_thread_trace(void);
int rocprofsys_stop_thread_trace(void);

#ifdef __cplusplus
}
#endif

#endif
