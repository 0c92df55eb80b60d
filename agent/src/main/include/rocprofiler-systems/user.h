/*
 * rocprof-sys in Java: the public user API (link with -lrocprof-sys-user).
 *
 * Source-compatible with rocprofiler-systems' <rocprofiler-systems/user.h>. Every function
 * returns a rocprofsys_user_error_t value (as int). Without the profiler the calls do nothing and
 * return ROCPROFSYS_USER_ERROR_NO_BINDING, so an annotated program runs unchanged on its own.
 */
#ifndef ROCPROFSYS_USER_H_
#define ROCPROFSYS_USER_H_

#if defined(ROCPROFSYS_USER_SOURCE) && (ROCPROFSYS_USER_SOURCE > 0)
#    if !defined(ROCPROFSYS_PUBLIC_API)
#        define ROCPROFSYS_PUBLIC_API __attribute__((visibility("default")))
#    endif
#else
#    if !defined(ROCPROFSYS_PUBLIC_API)
#        define ROCPROFSYS_PUBLIC_API
#    endif
#endif

#include "rocprofiler-systems/categories.h"
#include "rocprofiler-systems/types.h"

#if defined(__cplusplus)
extern "C" {
#endif

/* Tracing on / off for the calling thread and every thread created afterwards. */
extern int rocprofsys_user_start_trace(void) ROCPROFSYS_PUBLIC_API;
extern int rocprofsys_user_stop_trace(void) ROCPROFSYS_PUBLIC_API;

/* Tracing on / off for the calling thread only. */
extern int rocprofsys_user_start_thread_trace(void) ROCPROFSYS_PUBLIC_API;
extern int rocprofsys_user_stop_thread_trace(void) ROCPROFSYS_PUBLIC_API;

/* Open / close a user region (category "user"); close regions in reverse order of opening. */
extern int rocprofsys_user_push_region(const char*) ROCPROFSYS_PUBLIC_API;
extern int rocprofsys_user_pop_region(const char*) ROCPROFSYS_PUBLIC_API;

/* The same, with annotations recorded as arguments of the region's begin / end. */
extern int rocprofsys_user_push_annotated_region(const char*, rocprofsys_annotation_t*,
                                                 size_t) ROCPROFSYS_PUBLIC_API;
extern int rocprofsys_user_pop_annotated_region(const char*, rocprofsys_annotation_t*,
                                                size_t) ROCPROFSYS_PUBLIC_API;

/* Causal-profiling progress points. */
extern int rocprofsys_user_progress(const char*) ROCPROFSYS_PUBLIC_API;
extern int rocprofsys_user_annotated_progress(const char*, rocprofsys_annotation_t*,
                                              size_t) ROCPROFSYS_PUBLIC_API;

/*
 * Replace the functions the calls above forward to, merged with the current ones as `mode` says;
 * the former set is stored in *out when out is not NULL. Thread-safe, process-wide.
 */
extern int rocprofsys_user_configure(rocprofsys_user_configure_mode_t mode,
                                     rocprofsys_user_callbacks_t      inp,
                                     rocprofsys_user_callbacks_t*     out) ROCPROFSYS_PUBLIC_API;

/* Store the current callbacks in *out. */
extern int rocprofsys_user_get_callbacks(rocprofsys_user_callbacks_t*) ROCPROFSYS_PUBLIC_API;

/* A description of a rocprofsys_user_error_t value. */
extern const char* rocprofsys_user_error_string(int) ROCPROFSYS_PUBLIC_API;

#if defined(__cplusplus)
}
#endif

#endif /* ROCPROFSYS_USER_H_ */
