/* CPU-bound test target for the perf sampler: the main thread and 2 threads it starts each
 * spin for the given milliseconds of their own CPU time (so that the number of samples does not
 * depend on how busy the machine is) through a small chain of non-inlined calls
 * (built -O2 -fno-omit-frame-pointer so frame-pointer callchains hold). Prints its threads'
 * ids and the process CPU time on stdout at the end. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long duration_ns;
static volatile double sink;

static long now_ns(clockid_t c) {
    struct timespec ts;
    clock_gettime(c, &ts);
    return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

__attribute__((noinline)) static double spin_leaf(double x) {
    for (int i = 0; i < 20000; i++) {
        x = x * 1.0000001 + 0.5 / (x + 1.0);
    }
    return x;
}

__attribute__((noinline)) static double spin_middle(double x) {
    x = spin_leaf(x);
    __asm__ volatile("" ::: "memory");
    return x + 1.0;
}

__attribute__((noinline)) static double spin_outer(long until) {
    double x = 1.0;
    while (now_ns(CLOCK_THREAD_CPUTIME_ID) < until) {
        x = spin_middle(x);
        __asm__ volatile("" ::: "memory");
    }
    return x;
}

static void *worker(void *arg) {
    long *tid = arg;
    *tid = syscall(SYS_gettid);
    sink = spin_outer(now_ns(CLOCK_THREAD_CPUTIME_ID) + duration_ns);
    return NULL;
}

int main(int argc, char **argv) {
    long ms = argc > 1 ? atol(argv[1]) : 600;
    duration_ns = ms * 1000000L;
    pthread_t t[2];
    long tids[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        if (pthread_create(&t[i], NULL, worker, &tids[i]) != 0) {
            perror("pthread_create");
            return 2;
        }
    }
    sink = spin_outer(now_ns(CLOCK_THREAD_CPUTIME_ID) + duration_ns);
    for (int i = 0; i < 2; i++) {
        pthread_join(t[i], NULL);
    }
    printf("pid=%ld tid1=%ld tid2=%ld cpu_ns=%ld\n", (long) getpid(), tids[0], tids[1],
           now_ns(CLOCK_PROCESS_CPUTIME_ID));
    return 0;
}
