/*
 * Lock calls with known counts (LocksIT): "locks <threads> <pairs>" starts <threads> workers; each
 * makes <pairs> pthread_mutex_lock/unlock pairs, one trylock+unlock (of a mutex of its own), <pairs> rwlock
 * rdlock/unlock and wrlock/unlock pairs and <pairs> spin lock/unlock pairs, all on locks shared by
 * the workers. main prints the totals, which module its own address of pthread_mutex_lock lies in
 * (libc's unless the profiler patched the program's GOT), and the cost of one mutex lock+unlock
 * pair timed on the main thread alone (ns, best of 5 rounds of 20000).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;
static pthread_spinlock_t spin;
static long pairs;
static long mutex_count, read_count, write_count, spin_count, try_count;

static void *work(void *arg)
{
    (void)arg;
    for (long i = 0; i < pairs; i++) {
        pthread_mutex_lock(&mutex);
        mutex_count++;
        pthread_mutex_unlock(&mutex);
    }
    pthread_mutex_t own = PTHREAD_MUTEX_INITIALIZER; /* uncontended: the trylock succeeds at once */
    if (pthread_mutex_trylock(&own) == 0) {
        __atomic_fetch_add(&try_count, 1, __ATOMIC_RELAXED);
        pthread_mutex_unlock(&own);
    }
    for (long i = 0; i < pairs; i++) {
        pthread_rwlock_rdlock(&rwlock);
        __atomic_fetch_add(&read_count, 1, __ATOMIC_RELAXED);
        pthread_rwlock_unlock(&rwlock);
        pthread_rwlock_wrlock(&rwlock);
        write_count++;
        pthread_rwlock_unlock(&rwlock);
    }
    for (long i = 0; i < pairs; i++) {
        pthread_spin_lock(&spin);
        spin_count++;
        pthread_spin_unlock(&spin);
    }
    return NULL;
}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 4;
    pairs = argc > 2 ? atol(argv[2]) : 1000;
    pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
    pthread_t t[64];
    for (int i = 0; i < threads && i < 64; i++) {
        pthread_create(&t[i], NULL, work, NULL);
    }
    for (int i = 0; i < threads && i < 64; i++) {
        pthread_join(t[i], NULL);
    }
    printf("mutex=%ld trylock=%ld read=%ld write=%ld spin=%ld\n", mutex_count, try_count, read_count,
           write_count, spin_count);
    Dl_info info;
    int (*lock)(pthread_mutex_t *) = pthread_mutex_lock;
    const char *module = dladdr((void *)lock, &info) && info.dli_fname ? info.dli_fname : "?";
    const char *base = strrchr(module, '/');
    printf("pthread_mutex_lock in %s\n", base ? base + 1 : module);
    if (argc > 3) {
        double best = 1e30;
        for (int round = 0; round < 5; round++) {
            double t0 = now_ns();
            for (int i = 0; i < 20000; i++) {
                pthread_mutex_lock(&mutex);
                pthread_mutex_unlock(&mutex);
            }
            double per = (now_ns() - t0) / 20000;
            best = per < best ? per : best;
        }
        printf("pair_ns=%.2f\n", best);
    }
    return 0;
}
