/*
 * librocprof-sys-kokkosp.so: the Kokkos Tools library (issue 38, item 2) that Kokkos loads from
 * KOKKOS_TOOLS_LIBS (KOKKOS_PROFILE_LIBRARY before Kokkos 3.2). It only records: each callback
 * pushes or pops a region of category kokkos through the preloaded agent's exported API, on the
 * calling thread, labelled "<ROCPROFSYS_KOKKOSP_PREFIX> <name>" (just the name without a prefix)
 * and cut to ROCPROFSYS_KOKKOSP_NAME_LENGTH_MAX characters when that is above 0; the run passes
 * the settings as ROCPROFSYS_AGENT_KOKKOSP_* (ThreadingTools). Without the agent in the process
 * every callback does nothing.
 *
 * Kernels (parallel_for, _reduce, _scan), fences, profile regions and sections, and deep copies
 * (with ROCPROFSYS_KOKKOSP_DEEP_COPY) are regions from their begin to their end. Allocations,
 * deallocations, profile events and dual-view syncs and modifies happen at an instant: each is an
 * empty region with the bytes or the side as an annotation. declare_metadata, parse_args,
 * print_help and request_tool_settings are answered and record nothing.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocprofiler-systems/categories.h"

#define RSYS_EXPORT __attribute__((visibility("default")))

typedef int (*rsys_region_fn)(rocprofsys_category_t, const char *, rocprofsys_annotation_t *, size_t);

static rsys_region_fn push_region;
static rsys_region_fn pop_region;
static char prefix[256];
static size_t name_max;
static int deep_copy;

struct SpaceHandle {
    char name[64];
};

struct Kokkos_Tools_ToolSettings {
    bool requires_global_fencing;
    bool padding[255];
};

/* "<prefix> <name>", cut to name_max characters when set */
static void label(char *out, size_t size, const char *what, const char *name)
{
    snprintf(out, size, "%s%s%s%s%s", prefix, prefix[0] ? " " : "", what ? what : "", what ? " " : "",
             name ? name : "");
    if (name_max > 0 && strlen(out) > name_max && name_max < size) {
        out[name_max] = 0;
    }
}

static void begin(const char *what, const char *name)
{
    if (push_region != NULL) {
        char l[512];
        label(l, sizeof l, what, name);
        push_region(ROCPROFSYS_CATEGORY_KOKKOS, l, NULL, 0);
    }
}

static void end(void)
{
    if (pop_region != NULL) {
        pop_region(ROCPROFSYS_CATEGORY_KOKKOS, NULL, NULL, 0);
    }
}

static void instant(const char *what, const char *name, rocprofsys_annotation_t *a, size_t n)
{
    if (push_region != NULL) {
        char l[512];
        label(l, sizeof l, what, name);
        push_region(ROCPROFSYS_CATEGORY_KOKKOS, l, NULL, 0);
        pop_region(ROCPROFSYS_CATEGORY_KOKKOS, l, a, n);
    }
}

RSYS_EXPORT void kokkosp_init_library(int load_seq, uint64_t interface_version, uint32_t devices, void *info)
{
    (void)load_seq, (void)interface_version, (void)devices, (void)info;
    push_region = (rsys_region_fn)dlsym(RTLD_DEFAULT, "rocprofsys_push_category_region");
    pop_region = (rsys_region_fn)dlsym(RTLD_DEFAULT, "rocprofsys_pop_category_region");
    if (push_region == NULL || pop_region == NULL) {
        push_region = pop_region = NULL;
        return;
    }
    const char *p = getenv("ROCPROFSYS_AGENT_KOKKOSP_PREFIX");
    snprintf(prefix, sizeof prefix, "%s", p ? p : "");
    const char *m = getenv("ROCPROFSYS_AGENT_KOKKOSP_NAME_MAX");
    name_max = m ? (size_t)strtoull(m, NULL, 10) : 0;
    const char *d = getenv("ROCPROFSYS_AGENT_KOKKOSP_DEEP_COPY");
    deep_copy = d != NULL && strcmp(d, "1") == 0;
}

RSYS_EXPORT void kokkosp_finalize_library(void) {}

static uint64_t next_id(void)
{
    static uint64_t id;
    return __atomic_add_fetch(&id, 1, __ATOMIC_RELAXED);
}

RSYS_EXPORT void kokkosp_begin_parallel_for(const char *name, uint32_t device, uint64_t *id)
{
    (void)device;
    *id = next_id();
    begin(NULL, name);
}

RSYS_EXPORT void kokkosp_end_parallel_for(uint64_t id)
{
    (void)id;
    end();
}

RSYS_EXPORT void kokkosp_begin_parallel_reduce(const char *name, uint32_t device, uint64_t *id)
{
    (void)device;
    *id = next_id();
    begin(NULL, name);
}

RSYS_EXPORT void kokkosp_end_parallel_reduce(uint64_t id)
{
    (void)id;
    end();
}

RSYS_EXPORT void kokkosp_begin_parallel_scan(const char *name, uint32_t device, uint64_t *id)
{
    (void)device;
    *id = next_id();
    begin(NULL, name);
}

RSYS_EXPORT void kokkosp_end_parallel_scan(uint64_t id)
{
    (void)id;
    end();
}

RSYS_EXPORT void kokkosp_begin_fence(const char *name, uint32_t device, uint64_t *id)
{
    (void)device;
    *id = next_id();
    begin(NULL, name);
}

RSYS_EXPORT void kokkosp_end_fence(uint64_t id)
{
    (void)id;
    end();
}

RSYS_EXPORT void kokkosp_push_profile_region(const char *name)
{
    begin(NULL, name);
}

RSYS_EXPORT void kokkosp_pop_profile_region(void)
{
    end();
}

/* Profile sections: their names by id (ids are dense, from 0) */
static pthread_mutex_t sections_lock = PTHREAD_MUTEX_INITIALIZER;
static char **sections;
static uint32_t nsections;

RSYS_EXPORT void kokkosp_create_profile_section(const char *name, uint32_t *id)
{
    pthread_mutex_lock(&sections_lock);
    char **grown = (char **)realloc(sections, (nsections + 1) * sizeof *sections);
    if (grown != NULL) {
        sections = grown;
        sections[nsections] = strdup(name ? name : "");
        *id = nsections++;
    } else {
        *id = UINT32_MAX;
    }
    pthread_mutex_unlock(&sections_lock);
}

RSYS_EXPORT void kokkosp_start_profile_section(uint32_t id)
{
    pthread_mutex_lock(&sections_lock);
    char name[256];
    snprintf(name, sizeof name, "%s", id < nsections && sections[id] ? sections[id] : "");
    pthread_mutex_unlock(&sections_lock);
    begin(NULL, name);
}

RSYS_EXPORT void kokkosp_stop_profile_section(uint32_t id)
{
    (void)id;
    end();
}

RSYS_EXPORT void kokkosp_destroy_profile_section(uint32_t id)
{
    pthread_mutex_lock(&sections_lock);
    if (id < nsections) {
        free(sections[id]);
        sections[id] = NULL;
    }
    pthread_mutex_unlock(&sections_lock);
}

RSYS_EXPORT void kokkosp_allocate_data(struct SpaceHandle space, const char *name, const void *ptr, uint64_t size)
{
    (void)ptr;
    char what[80];
    snprintf(what, sizeof what, "allocate %.64s", space.name);
    rocprofsys_annotation_t a = {"bytes", ROCPROFSYS_VALUE_UINT64, &size};
    instant(what, name, &a, 1);
}

RSYS_EXPORT void kokkosp_deallocate_data(struct SpaceHandle space, const char *name, const void *ptr,
                                         uint64_t size)
{
    (void)ptr;
    char what[80];
    snprintf(what, sizeof what, "deallocate %.64s", space.name);
    rocprofsys_annotation_t a = {"bytes", ROCPROFSYS_VALUE_UINT64, &size};
    instant(what, name, &a, 1);
}

RSYS_EXPORT void kokkosp_begin_deep_copy(struct SpaceHandle dst_space, const char *dst_name, const void *dst_ptr,
                                         struct SpaceHandle src_space, const char *src_name, const void *src_ptr,
                                         uint64_t size)
{
    (void)dst_ptr, (void)src_ptr, (void)size;
    if (!deep_copy) {
        return;
    }
    char name[300];
    snprintf(name, sizeof name, "%.64s %s <- %.64s %s", dst_space.name, dst_name ? dst_name : "",
             src_space.name, src_name ? src_name : "");
    begin("deep_copy", name);
}

RSYS_EXPORT void kokkosp_end_deep_copy(void)
{
    if (deep_copy) {
        end();
    }
}

RSYS_EXPORT void kokkosp_profile_event(const char *name)
{
    instant(NULL, name, NULL, 0);
}

RSYS_EXPORT void kokkosp_dual_view_sync(const char *name, const void *ptr, bool to_device)
{
    (void)ptr;
    const char *side = to_device ? "device" : "host";
    rocprofsys_annotation_t a = {"to", ROCPROFSYS_VALUE_CSTR, (void *)side};
    instant("dual_view_sync", name, &a, 1);
}

RSYS_EXPORT void kokkosp_dual_view_modify(const char *name, const void *ptr, bool on_device)
{
    (void)ptr;
    const char *side = on_device ? "device" : "host";
    rocprofsys_annotation_t a = {"on", ROCPROFSYS_VALUE_CSTR, (void *)side};
    instant("dual_view_modify", name, &a, 1);
}

RSYS_EXPORT void kokkosp_declare_metadata(const char *key, const char *value)
{
    (void)key, (void)value;
}

RSYS_EXPORT void kokkosp_request_tool_settings(uint32_t count, struct Kokkos_Tools_ToolSettings *settings)
{
    (void)count, (void)settings; /* no global fencing needed: regions are timed as Kokkos runs them */
}

RSYS_EXPORT void kokkosp_parse_args(int argc, char **argv)
{
    (void)argc, (void)argv;
}

RSYS_EXPORT void kokkosp_print_help(char *exe)
{
    (void)exe;
    fprintf(stderr, "librocprof-sys-kokkosp: records Kokkos kernels, fences, regions and sections "
                    "as rocprof-sys regions (category kokkos); set it up with rocprof-sys-run -I kokkosp\n");
}
