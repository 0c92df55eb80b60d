/*
 * librocprof-sys-user.so: the public user API (rocprofiler-systems/user.h).
 *
 * Each call forwards to a callback. The initial callbacks are bound, on first use, to the agent's
 * rocprofsys_* entry points found with dlsym(RTLD_DEFAULT); when the agent is not in the process
 * they stay NULL and every call returns ROCPROFSYS_USER_ERROR_NO_BINDING without doing anything.
 * rocprofsys_user_configure merges user callbacks into that set (UNION / REPLACE / INTERSECT).
 */
#define ROCPROFSYS_USER_SOURCE 1
#include "rocprofiler-systems/user.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

typedef int (*agent_category_region_fn)(rocprofsys_category_t, const char *,
                                        rocprofsys_annotation_t *, size_t);
typedef void (*agent_progress_fn)(const char *);
typedef void (*agent_annotated_progress_fn)(const char *, rocprofsys_annotation_t *, size_t);

static rocprofsys_user_callbacks_t callbacks = ROCPROFSYS_USER_CALLBACKS_INIT;
static int bound; /* atomic: the initial binding was made */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static agent_category_region_fn agent_push_category_region;
static agent_category_region_fn agent_pop_category_region;
static agent_progress_fn agent_progress;
static agent_annotated_progress_fn agent_annotated_progress;

/* Adapters from the user-API signatures to the agent's (category user, int results). */
static int bound_progress(const char *name)
{
    agent_progress(name);
    return 0;
}

static int bound_push_annotated(const char *name, struct rocprofsys_annotation *a, size_t n)
{
    return agent_push_category_region(ROCPROFSYS_CATEGORY_USER, name, a, n);
}

static int bound_pop_annotated(const char *name, struct rocprofsys_annotation *a, size_t n)
{
    return agent_pop_category_region(ROCPROFSYS_CATEGORY_USER, name, a, n);
}

static int bound_annotated_progress(const char *name, struct rocprofsys_annotation *a, size_t n)
{
    agent_annotated_progress(name, a, n);
    return 0;
}

#define LOAD(field) __atomic_load_n(&callbacks.field, __ATOMIC_ACQUIRE)
#define STORE(field, value) __atomic_store_n(&callbacks.field, (value), __ATOMIC_RELEASE)

static void *agent_symbol(const char *name)
{
    return dlsym(RTLD_DEFAULT, name);
}

static __attribute__((noinline)) void bind_agent(void)
{
    pthread_mutex_lock(&lock);
    if (!__atomic_load_n(&bound, __ATOMIC_ACQUIRE)) {
        STORE(start_trace, (rocprofsys_trace_func_t)agent_symbol("rocprofsys_start_trace"));
        STORE(stop_trace, (rocprofsys_trace_func_t)agent_symbol("rocprofsys_stop_trace"));
        STORE(start_thread_trace,
              (rocprofsys_trace_func_t)agent_symbol("rocprofsys_start_thread_trace"));
        STORE(stop_thread_trace,
              (rocprofsys_trace_func_t)agent_symbol("rocprofsys_stop_thread_trace"));
        STORE(push_region, (rocprofsys_region_func_t)agent_symbol("rocprofsys_push_region"));
        STORE(pop_region, (rocprofsys_region_func_t)agent_symbol("rocprofsys_pop_region"));
        agent_push_category_region =
            (agent_category_region_fn)agent_symbol("rocprofsys_push_category_region");
        agent_pop_category_region =
            (agent_category_region_fn)agent_symbol("rocprofsys_pop_category_region");
        agent_progress = (agent_progress_fn)agent_symbol("rocprofsys_progress");
        agent_annotated_progress =
            (agent_annotated_progress_fn)agent_symbol("rocprofsys_annotated_progress");
        STORE(progress, agent_progress ? bound_progress : NULL);
        STORE(push_annotated_region, agent_push_category_region ? bound_push_annotated : NULL);
        STORE(pop_annotated_region, agent_pop_category_region ? bound_pop_annotated : NULL);
        STORE(annotated_progress, agent_annotated_progress ? bound_annotated_progress : NULL);
        __atomic_store_n(&bound, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&lock);
}

static inline void ensure_bound(void)
{
    if (__builtin_expect(!__atomic_load_n(&bound, __ATOMIC_ACQUIRE), 0)) {
        bind_agent();
    }
}

static inline int result(int rc)
{
    return rc == 0 ? ROCPROFSYS_USER_SUCCESS : ROCPROFSYS_USER_ERROR_INTERNAL;
}

#define INVOKE_TRACE(field)                                                                         \
    ensure_bound();                                                                                 \
    rocprofsys_trace_func_t f = LOAD(field);                                                        \
    return f ? result(f()) : ROCPROFSYS_USER_ERROR_NO_BINDING

#define INVOKE_REGION(field, name)                                                                  \
    ensure_bound();                                                                                 \
    rocprofsys_region_func_t f = LOAD(field);                                                       \
    return f ? result(f(name)) : ROCPROFSYS_USER_ERROR_NO_BINDING

#define INVOKE_ANNOTATED(field, name, a, n)                                                         \
    ensure_bound();                                                                                 \
    rocprofsys_annotated_region_func_t f = LOAD(field);                                             \
    return f ? result(f(name, a, n)) : ROCPROFSYS_USER_ERROR_NO_BINDING

int rocprofsys_user_start_trace(void) { INVOKE_TRACE(start_trace); }
int rocprofsys_user_stop_trace(void) { INVOKE_TRACE(stop_trace); }
int rocprofsys_user_start_thread_trace(void) { INVOKE_TRACE(start_thread_trace); }
int rocprofsys_user_stop_thread_trace(void) { INVOKE_TRACE(stop_thread_trace); }
int rocprofsys_user_push_region(const char *id) { INVOKE_REGION(push_region, id); }
int rocprofsys_user_pop_region(const char *id) { INVOKE_REGION(pop_region, id); }
int rocprofsys_user_progress(const char *id) { INVOKE_REGION(progress, id); }

int rocprofsys_user_push_annotated_region(const char *id, rocprofsys_annotation_t *a, size_t n)
{
    INVOKE_ANNOTATED(push_annotated_region, id, a, n);
}

int rocprofsys_user_pop_annotated_region(const char *id, rocprofsys_annotation_t *a, size_t n)
{
    INVOKE_ANNOTATED(pop_annotated_region, id, a, n);
}

int rocprofsys_user_annotated_progress(const char *id, rocprofsys_annotation_t *a, size_t n)
{
    INVOKE_ANNOTATED(annotated_progress, id, a, n);
}

static void snapshot(rocprofsys_user_callbacks_t *out)
{
    out->start_trace = LOAD(start_trace);
    out->stop_trace = LOAD(stop_trace);
    out->start_thread_trace = LOAD(start_thread_trace);
    out->stop_thread_trace = LOAD(stop_thread_trace);
    out->push_region = LOAD(push_region);
    out->pop_region = LOAD(pop_region);
    out->progress = LOAD(progress);
    out->push_annotated_region = LOAD(push_annotated_region);
    out->pop_annotated_region = LOAD(pop_annotated_region);
    out->annotated_progress = LOAD(annotated_progress);
}

static void install(const rocprofsys_user_callbacks_t *v)
{
    STORE(start_trace, v->start_trace);
    STORE(stop_trace, v->stop_trace);
    STORE(start_thread_trace, v->start_thread_trace);
    STORE(stop_thread_trace, v->stop_thread_trace);
    STORE(push_region, v->push_region);
    STORE(pop_region, v->pop_region);
    STORE(progress, v->progress);
    STORE(push_annotated_region, v->push_annotated_region);
    STORE(pop_annotated_region, v->pop_annotated_region);
    STORE(annotated_progress, v->annotated_progress);
}

/* UNION: a given non-NULL callback replaces the current one. */
#define MERGE_UNION(f)                                                                              \
    if (inp.f != NULL) v.f = inp.f
/* INTERSECT: a callback survives only where the given one is the same. */
#define MERGE_INTERSECT(f)                                                                          \
    if (v.f != inp.f) v.f = NULL

int rocprofsys_user_configure(rocprofsys_user_configure_mode_t mode, rocprofsys_user_callbacks_t inp,
                              rocprofsys_user_callbacks_t *out)
{
    ensure_bound();
    pthread_mutex_lock(&lock);
    rocprofsys_user_callbacks_t former;
    snapshot(&former);
    rocprofsys_user_callbacks_t v = former;
    int rc = ROCPROFSYS_USER_SUCCESS;
    switch (mode) {
    case ROCPROFSYS_USER_REPLACE_CONFIG: v = inp; break;
    case ROCPROFSYS_USER_UNION_CONFIG:
        MERGE_UNION(start_trace);
        MERGE_UNION(stop_trace);
        MERGE_UNION(start_thread_trace);
        MERGE_UNION(stop_thread_trace);
        MERGE_UNION(push_region);
        MERGE_UNION(pop_region);
        MERGE_UNION(progress);
        MERGE_UNION(push_annotated_region);
        MERGE_UNION(pop_annotated_region);
        MERGE_UNION(annotated_progress);
        break;
    case ROCPROFSYS_USER_INTERSECT_CONFIG:
        MERGE_INTERSECT(start_trace);
        MERGE_INTERSECT(stop_trace);
        MERGE_INTERSECT(start_thread_trace);
        MERGE_INTERSECT(stop_thread_trace);
        MERGE_INTERSECT(push_region);
        MERGE_INTERSECT(pop_region);
        MERGE_INTERSECT(progress);
        MERGE_INTERSECT(push_annotated_region);
        MERGE_INTERSECT(pop_annotated_region);
        MERGE_INTERSECT(annotated_progress);
        break;
    default: rc = ROCPROFSYS_USER_ERROR_INVALID_CATEGORY; break;
    }
    if (rc == ROCPROFSYS_USER_SUCCESS) {
        install(&v);
    }
    pthread_mutex_unlock(&lock);
    if (out != NULL) {
        *out = former;
    }
    return rc;
}

int rocprofsys_user_get_callbacks(rocprofsys_user_callbacks_t *out)
{
    if (out == NULL) {
        return ROCPROFSYS_USER_ERROR_BAD_VALUE;
    }
    ensure_bound();
    snapshot(out);
    return ROCPROFSYS_USER_SUCCESS;
}

const char *rocprofsys_user_error_string(int error_category)
{
    switch (error_category) {
    case ROCPROFSYS_USER_SUCCESS: return "Success";
    case ROCPROFSYS_USER_ERROR_NO_BINDING: return "Function pointer not assigned";
    case ROCPROFSYS_USER_ERROR_BAD_VALUE: return "Invalid value was provided";
    case ROCPROFSYS_USER_ERROR_INVALID_CATEGORY: return "Invalid user binding category";
    case ROCPROFSYS_USER_ERROR_INTERNAL:
        return "An unknown error occurred within rocprof-sys library";
    default: break;
    }
    return "No error";
}
