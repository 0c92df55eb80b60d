/*
 * librocprof-sys-ompt.so: the OpenMP tool (OMPT) that an OpenMP runtime with OMPT (LLVM's libomp)
 * loads from OMP_TOOL_LIBRARIES (issue 38, item 1). It only records: each callback pushes or pops
 * a region of category ompt through the preloaded agent's exported API, on the calling thread,
 * named as upstream's (timemory's ompt handle): ompt_parallel [parallelism=N],
 * ompt_implicit_task, ompt_work_<kind>, ompt_sync_region_<kind>, ompt_masked, ompt_thread_worker.
 * Without the agent in the process the tool declines (ompt_start_tool returns NULL), so the
 * runtime runs as without a tool.
 *
 * Left out: the initial thread's region and the initial implicit task. The runtime ends them
 * after main has returned (at its own shutdown), which would cross the end of main's region.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <omp-tools.h>

#include "rocprofiler-systems/categories.h"

typedef int (*rsys_push_fn)(rocprofsys_category_t, const char *, rocprofsys_annotation_t *, size_t);

static rsys_push_fn push_region;
static rsys_push_fn pop_region;

static void begin(const char *name)
{
    push_region(ROCPROFSYS_CATEGORY_OMPT, name, NULL, 0);
}

static void end(const char *name)
{
    pop_region(ROCPROFSYS_CATEGORY_OMPT, name, NULL, 0);
}

/* thread_data marks a worker (the initial thread's region is left out, see above) */
static void on_thread_begin(ompt_thread_t type, ompt_data_t *thread)
{
    thread->value = type == ompt_thread_worker;
    if (thread->value) {
        begin("ompt_thread_worker");
    }
}

static void on_thread_end(ompt_data_t *thread)
{
    if (thread->value) {
        end("ompt_thread_worker");
    }
}

static void on_parallel_begin(ompt_data_t *task, const ompt_frame_t *frame, ompt_data_t *parallel,
                              unsigned int requested, int flags, const void *codeptr)
{
    (void)task, (void)frame, (void)parallel, (void)flags, (void)codeptr;
    char name[64];
    snprintf(name, sizeof name, "ompt_parallel [parallelism=%u]", requested);
    begin(name);
}

static void on_parallel_end(ompt_data_t *parallel, ompt_data_t *task, int flags, const void *codeptr)
{
    (void)parallel, (void)task, (void)flags, (void)codeptr;
    end("ompt_parallel");
}

static void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel, ompt_data_t *task,
                             unsigned int actual, unsigned int index, int flags)
{
    (void)parallel, (void)actual, (void)index;
    if (flags & ompt_task_initial) {
        return;
    }
    if (endpoint == ompt_scope_begin) {
        task->value = 1;
        begin("ompt_implicit_task");
    } else if (task != NULL && task->value == 1) {
        task->value = 0;
        end("ompt_implicit_task");
    }
}

static const char *work_name(ompt_work_t kind)
{
    switch (kind) {
    case ompt_work_loop: return "ompt_work_loop";
    case ompt_work_sections: return "ompt_work_sections";
    case ompt_work_single_executor: return "ompt_work_single_executor";
    case ompt_work_single_other: return "ompt_work_single_other";
    case ompt_work_workshare: return "ompt_work_workshare";
    case ompt_work_distribute: return "ompt_work_distribute";
    case ompt_work_taskloop: return "ompt_work_taskloop";
    default: return "ompt_work";
    }
}

static void on_work(ompt_work_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel,
                    ompt_data_t *task, uint64_t count, const void *codeptr)
{
    (void)parallel, (void)task, (void)count, (void)codeptr;
    if (endpoint == ompt_scope_begin) {
        begin(work_name(kind));
    } else {
        end(work_name(kind));
    }
}

static const char *sync_name(ompt_sync_region_t kind)
{
    switch (kind) {
    case ompt_sync_region_barrier: return "ompt_sync_region_barrier";
    case ompt_sync_region_barrier_implicit: return "ompt_sync_region_barrier_implicit";
    case ompt_sync_region_barrier_explicit: return "ompt_sync_region_barrier_explicit";
    case ompt_sync_region_barrier_implementation: return "ompt_sync_region_barrier_implementation";
    case ompt_sync_region_taskwait: return "ompt_sync_region_taskwait";
    case ompt_sync_region_taskgroup: return "ompt_sync_region_taskgroup";
    case ompt_sync_region_reduction: return "ompt_sync_region_reduction";
    default: return "ompt_sync_region";
    }
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                           ompt_data_t *parallel, ompt_data_t *task, const void *codeptr)
{
    (void)parallel, (void)task, (void)codeptr;
    if (endpoint == ompt_scope_begin) {
        begin(sync_name(kind));
    } else {
        end(sync_name(kind));
    }
}

static void on_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel, ompt_data_t *task,
                      const void *codeptr)
{
    (void)parallel, (void)task, (void)codeptr;
    if (endpoint == ompt_scope_begin) {
        begin("ompt_masked");
    } else {
        end("ompt_masked");
    }
}

static int tool_initialize(ompt_function_lookup_t lookup, int device, ompt_data_t *tool)
{
    (void)device, (void)tool;
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    if (set == NULL) {
        return 0;
    }
    set(ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin);
    set(ompt_callback_thread_end, (ompt_callback_t)on_thread_end);
    set(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin);
    set(ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end);
    set(ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task);
    set(ompt_callback_work, (ompt_callback_t)on_work);
    set(ompt_callback_sync_region, (ompt_callback_t)on_sync_region);
    set(ompt_callback_masked, (ompt_callback_t)on_masked);
    return 1; /* keep the tool */
}

static void tool_finalize(ompt_data_t *tool)
{
    (void)tool;
}

__attribute__((visibility("default"))) ompt_start_tool_result_t *
ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    (void)omp_version, (void)runtime_version;
    push_region = (rsys_push_fn)dlsym(RTLD_DEFAULT, "rocprofsys_push_category_region");
    pop_region = (rsys_push_fn)dlsym(RTLD_DEFAULT, "rocprofsys_pop_category_region");
    if (push_region == NULL || pop_region == NULL) {
        return NULL;
    }
    static ompt_start_tool_result_t result = {tool_initialize, tool_finalize, {0}};
    return &result;
}
