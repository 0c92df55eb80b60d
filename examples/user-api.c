/*
 * user-api: the user API from C, modelled on upstream's examples/user-api.
 *
 * Demonstrates: nested user regions with exact, argument-controlled counts (each of nthread
 * threads and then main run `run(<nfib>) x <nitr>` once, so that region appears nthread + 1
 * times); rocprofsys_user_configure(UNION) replacing push_region with a custom callback that
 * prints "Pushing custom region :: <name>" and forwards to the original annotated push (errno and
 * strerror annotations); annotated regions with every common value type; stop/start_thread_trace
 * around thread creation. Without the profiler nothing is bound: no "Pushing custom region" line.
 *
 *   user-api [nfib=10] [nthread=4] [nitr=50000]
 */
#define _GNU_SOURCE /* GNU strerror_r */
#include <rocprofiler-systems/user.h>

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long total;
static pthread_mutex_t total_lock = PTHREAD_MUTEX_INITIALIZER;

static rocprofsys_user_callbacks_t custom_callbacks = ROCPROFSYS_USER_CALLBACKS_INIT;
static rocprofsys_user_callbacks_t original_callbacks = ROCPROFSYS_USER_CALLBACKS_INIT;

static long fib(long n) __attribute__((noinline));
static long fib(long n)
{
    return (n < 2) ? n : fib(n - 1) + fib(n - 2);
}

struct run_args {
    size_t nitr;
    long nfib;
};

static void run(size_t nitr, long n) __attribute__((noinline));
static void run(size_t nitr, long n)
{
    char label[64];
    snprintf(label, sizeof label, "%s(%li) x %zu", __func__, n, nitr);
    rocprofsys_user_push_region(label);
    long local = 0;
    for (size_t i = 0; i < nitr; ++i) {
        local += fib(n);
    }
    pthread_mutex_lock(&total_lock);
    total += local;
    pthread_mutex_unlock(&total_lock);
    rocprofsys_user_pop_region(label);
}

static void *thread_main(void *p)
{
    struct run_args *a = (struct run_args *)p;
    run(a->nitr, a->nfib);
    return NULL;
}

static int custom_push_region(const char *name)
{
    if (!original_callbacks.push_region || !original_callbacks.push_annotated_region) {
        return ROCPROFSYS_USER_ERROR_NO_BINDING;
    }
    printf("Pushing custom region :: %s\n", name);

    int32_t err = errno;
    char *msg = NULL;
    char buf[1024];
    if (err != 0) {
        msg = strerror_r(err, buf, sizeof buf);
    }
    rocprofsys_annotation_t annotations[] = {{"errno", ROCPROFSYS_INT32, &err},
                                             {"strerror", ROCPROFSYS_STRING, msg}};
    errno = 0;
    return (*original_callbacks.push_annotated_region)(
        name, annotations, sizeof annotations / sizeof annotations[0]);
}

int main(int argc, char **argv)
{
    custom_callbacks.push_region = &custom_push_region;
    rocprofsys_user_configure(ROCPROFSYS_USER_UNION_CONFIG, custom_callbacks,
                              &original_callbacks);

    rocprofsys_user_push_region(argv[0]);
    rocprofsys_user_push_region("initialization");
    size_t nthread = 4;
    size_t nitr = 50000;
    long nfib = 10;
    if (argc > 1) nfib = atol(argv[1]);
    if (argc > 2) nthread = (size_t)atol(argv[2]);
    if (argc > 3) nitr = (size_t)atol(argv[3]);
    rocprofsys_user_pop_region("initialization");

    printf("[%s] Threads: %zu\n[%s] Iterations: %zu\n[%s] fibonacci(%li)...\n", argv[0], nthread,
           argv[0], nitr, argv[0], nfib);

    rocprofsys_user_push_region("thread_creation");
    pthread_t *threads = calloc(nthread ? nthread : 1, sizeof *threads);
    struct run_args args = {nitr, nfib};
    /* disable tracing on this thread while creating the workers */
    rocprofsys_user_stop_thread_trace();
    for (size_t i = 0; i < nthread; ++i) {
        pthread_create(&threads[i], NULL, thread_main, &args);
    }
    rocprofsys_user_start_thread_trace();
    rocprofsys_user_pop_region("thread_creation");

    rocprofsys_user_push_region("thread_wait");
    for (size_t i = 0; i < nthread; ++i) {
        pthread_join(threads[i], NULL);
    }
    rocprofsys_user_pop_region("thread_wait");
    free(threads);

    run(nitr, nfib);

    /* an annotated region: values given on the push and on the pop */
    uint64_t count = (uint64_t)nthread + 1;
    int64_t fib_n = nfib;
    double mean = 0.0;
    rocprofsys_annotation_t begin_notes[] = {{"runs", ROCPROFSYS_UINT64, &count},
                                             {"nfib", ROCPROFSYS_INT64, &fib_n},
                                             {"label", ROCPROFSYS_STRING, (void *)"summary"}};
    rocprofsys_user_push_annotated_region("summarize", begin_notes, 3);
    mean = (double)total / (double)count;
    rocprofsys_annotation_t end_notes[] = {{"mean", ROCPROFSYS_FLOAT64, &mean},
                                           {"total", ROCPROFSYS_PTR, (void *)&total}};
    rocprofsys_user_pop_annotated_region("summarize", end_notes, 2);

    rocprofsys_user_progress("user-api-done");

    printf("[%s] fibonacci(%li) x %zu = %li\n", argv[0], nfib, nthread, total);
    rocprofsys_user_pop_region(argv[0]);
    return 0;
}
