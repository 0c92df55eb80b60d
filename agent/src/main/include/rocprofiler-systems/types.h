/*
 * rocprof-sys in Java: public user API, callback and result types.
 *
 * Source-compatible with rocprofiler-systems' <rocprofiler-systems/types.h>: same typedefs, same
 * struct member order, same enumerator values, same ROCPROFSYS_USER_CALLBACKS_INIT. Works from C
 * and from C++.
 */
#ifndef ROCPROFSYS_TYPES_H_
#define ROCPROFSYS_TYPES_H_

#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

struct rocprofsys_annotation;

typedef int (*rocprofsys_trace_func_t)(void);
typedef int (*rocprofsys_region_func_t)(const char*);
typedef int (*rocprofsys_annotated_region_func_t)(const char*, struct rocprofsys_annotation*,
                                                  size_t);

/* The functions the user API forwards to; NULL means "not bound". */
typedef struct rocprofsys_user_callbacks
{
    rocprofsys_trace_func_t            start_trace;           /* tracing on, process-wide */
    rocprofsys_trace_func_t            stop_trace;            /* tracing off, process-wide */
    rocprofsys_trace_func_t            start_thread_trace;    /* tracing on, this thread */
    rocprofsys_trace_func_t            stop_thread_trace;     /* tracing off, this thread */
    rocprofsys_region_func_t           push_region;           /* open a region */
    rocprofsys_region_func_t           pop_region;            /* close a region */
    rocprofsys_region_func_t           progress;              /* causal progress point */
    rocprofsys_annotated_region_func_t push_annotated_region; /* open, with annotations */
    rocprofsys_annotated_region_func_t pop_annotated_region;  /* close, with annotations */
    rocprofsys_annotated_region_func_t annotated_progress;    /* progress, with annotations */
} rocprofsys_user_callbacks_t;

/* How rocprofsys_user_configure merges the given callbacks into the current ones. */
typedef enum ROCPROFSYS_USER_CONFIGURE_MODE
{
    ROCPROFSYS_USER_UNION_CONFIG = 0,  /* take every non-NULL given callback */
    ROCPROFSYS_USER_REPLACE_CONFIG,    /* take the given set as is, NULLs included */
    ROCPROFSYS_USER_INTERSECT_CONFIG,  /* keep a callback only where both sets agree */
    ROCPROFSYS_USER_CONFIGURE_MODE_LAST
} rocprofsys_user_configure_mode_t;

/* Results of the user API functions. */
typedef enum ROCPROFSYS_USER_ERROR
{
    ROCPROFSYS_USER_SUCCESS = 0,
    ROCPROFSYS_USER_ERROR_NO_BINDING,       /* no callback bound (profiler absent) */
    ROCPROFSYS_USER_ERROR_BAD_VALUE,        /* invalid argument */
    ROCPROFSYS_USER_ERROR_INVALID_CATEGORY, /* unknown configure mode / category */
    ROCPROFSYS_USER_ERROR_INTERNAL,         /* the bound callback reported a failure */
    ROCPROFSYS_USER_ERROR_LAST
} rocprofsys_user_error_t;

#if defined(__cplusplus)
}
#endif

#ifndef ROCPROFSYS_USER_CALLBACKS_INIT
#    define ROCPROFSYS_USER_CALLBACKS_INIT                                                  \
        {                                                                                   \
            NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL                      \
        }
#endif

#endif /* ROCPROFSYS_TYPES_H_ */
