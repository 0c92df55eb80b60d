/*
 * parallel-overhead: THREADS threads plus the main thread each compute fib(N) recursively ITR
 * times (the shape of upstream's parallel-overhead test program, whose traces its annotate, overflow
 * and instrumentation tests check). Every runner first waits at one pthread barrier, so that they
 * all start together; main then joins the THREADS threads.
 *
 *   parallel-overhead [N=10] [THREADS=min(16, CPUs)] [ITR=50000]
 *
 * Per run: THREADS + 1 calls of run, THREADS + 1 of pthread_barrier_wait, THREADS of pthread_join.
 * fib(N) makes 2*fib(N+1)-1 calls, so an instrumented run has exact call counts to check:
 * (THREADS + 1) * ITR * (2*fib(N+1)-1). Unlike upstream, N is the same in every iteration (upstream
 * draws it from N-2..N+2) and nothing is printed per thread, so both the counts and the output are
 * the same on every run.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_barrier_t start_line;
static long total;

__attribute__((noinline)) long fib(long k)
{
    return k < 2 ? k : fib(k - 1) + fib(k - 2);
}

__attribute__((noinline)) void run(size_t nitr, long n)
{
    long local = 0;
    for(size_t i = 0; i < nitr; ++i)
        local += fib(n);
    __atomic_fetch_add(&total, local, __ATOMIC_RELAXED);
}

struct job
{
    size_t nitr;
    long   n;
};

/* what every runner does, the main thread included */
static void line_up_then_work(const struct job* job)
{
    pthread_barrier_wait(&start_line);
    run(job->nitr, job->n);
}

static void* worker(void* arg)
{
    line_up_then_work(arg);
    return NULL;
}

static long parse(const char* what, const char* s)
{
    char* end;
    long  v = strtol(s, &end, 10);
    if(*s == 0 || *end != 0 || v < 0)
    {
        fprintf(stderr, "parallel-overhead: %s must be a number >= 0, not '%s'\n", what, s);
        exit(2);
    }
    return v;
}

int main(int argc, char** argv)
{
    /* upstream prints argv[0]'s basename; a fixed name keeps a rewritten copy's output the same */
    const char* name = "parallel-overhead";
    long        cpus = sysconf(_SC_NPROCESSORS_ONLN);
    long        nfib = argc > 1 ? parse("N", argv[1]) : 10;
    long nthread     = argc > 2 ? parse("THREADS", argv[2]) : (cpus > 0 && cpus < 16 ? cpus : 16);
    long nitr        = argc > 3 ? parse("ITR", argv[3]) : 50000;

    printf("\n[%s] Threads: %ld\n[%s] Iterations: %ld\n[%s] fibonacci(%ld)...\n", name, nthread,
           name, nitr, name, nfib);

    pthread_barrier_init(&start_line, NULL, (unsigned) nthread + 1);
    struct job job = { (size_t) nitr, nfib };
    pthread_t* tid = calloc((size_t) nthread + 1, sizeof(pthread_t));
    for(long t = 0; t < nthread; ++t)
    {
        int rc = pthread_create(&tid[t], NULL, worker, &job);
        if(rc != 0)
        {
            fprintf(stderr, "parallel-overhead: pthread_create: %s\n", strerror(rc));
            return 1;
        }
    }
    line_up_then_work(&job);
    for(long t = 0; t < nthread; ++t)
        pthread_join(tid[t], NULL);
    pthread_barrier_destroy(&start_line);
    free(tid);

    printf("[%s] fibonacci(%ld) x %ld = %ld\n", name, nfib, nthread + 1, total);
    return 0;
}
