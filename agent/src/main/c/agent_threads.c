/*
 * Thread tracking: pthread_create is wrapped so that a new thread gets the next thread_seq at
 * creation (main is 0) and records THREAD_START on entry; a thread-specific-data destructor records
 * THREAD_END when the thread ends (return from its start routine or pthread_exit) and marks its
 * ring ENDED. Threads the wrapper did not see get a seq on their first record.
 */
#include "rsys_agent.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

typedef int (*rsys_pthread_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
                                      void *);

pthread_key_t rsys_thread_key RSYS_HIDDEN;
int rsys_thread_key_ok RSYS_HIDDEN;
static rsys_pthread_create_fn real_pthread_create;

RSYS_HIDDEN void rsys_thread_exit(void *unused);
RSYS_HIDDEN void rsys_threads_init(void);

void rsys_threads_init(void)
{
    if (real_pthread_create == NULL) {
        real_pthread_create = (rsys_pthread_create_fn)dlsym(RTLD_NEXT, "pthread_create");
    }
}

void rsys_thread_exit(void *unused)
{
    (void)unused;
    struct rsys_tls *t = &rsys_tls;
    if (t->state == RSYS_TS_ACTIVE) {
        rsys_write_thread_end(t);
    } else {
        t->state = RSYS_TS_ENDED;
    }
}

struct rsys_start {
    void *(*fn)(void *);
    void *arg;
    int32_t seq;
};

static void *rsys_thread_main(void *p)
{
    struct rsys_start s = *(struct rsys_start *)p;
    free(p);
    struct rsys_tls *t = &rsys_tls;
    if (!t->has_seq) {
        t->seq = s.seq;
        t->has_seq = 1;
    }
    if (t->data == NULL) {
        rsys_attach(t); /* THREAD_START */
    }
    return s.fn(s.arg);
}

RSYS_EXPORT int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                               void *(*start_routine)(void *), void *arg)
{
    if (real_pthread_create == NULL) {
        rsys_threads_init();
    }
    if (!rsys_g.enabled) {
        return real_pthread_create(thread, attr, start_routine, arg);
    }
    struct rsys_start *s = (struct rsys_start *)malloc(sizeof *s);
    if (s == NULL) {
        return real_pthread_create(thread, attr, start_routine, arg);
    }
    s->fn = start_routine;
    s->arg = arg;
    s->seq = (int32_t)__atomic_fetch_add(&rsys_g.next_seq, 1u, __ATOMIC_RELAXED);
    int rc = real_pthread_create(thread, attr, rsys_thread_main, s);
    if (rc != 0) {
        free(s);
    }
    return rc;
}
