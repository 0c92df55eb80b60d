/*
 * parallel-overhead: threads that each compute fib(N) recursively ITR times (modelled on
 * upstream's parallel-overhead test program). fib(N) makes 2*fib(N+1)-1 calls, so an
 * instrumented run has exact call counts to check.
 *
 *   parallel-overhead [N=20] [THREADS=4] [ITR=10]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long n = 20;
static long itr = 10;

__attribute__((noinline)) long fib(long k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); }

__attribute__((noinline)) static void* run(void* arg)
{
    long* out = arg;
    for(long i = 0; i < itr; ++i)
        *out += fib(n);
    return NULL;
}

int main(int argc, char** argv)
{
    n              = argc > 1 ? atol(argv[1]) : 20;
    long nthreads  = argc > 2 ? atol(argv[2]) : 4;
    itr            = argc > 3 ? atol(argv[3]) : 10;
    pthread_t* tid = calloc(nthreads, sizeof(pthread_t));
    long*      sum = calloc(nthreads, sizeof(long));
    for(long t = 0; t < nthreads; ++t)
        pthread_create(&tid[t], NULL, run, &sum[t]);
    long total = 0;
    for(long t = 0; t < nthreads; ++t)
    {
        pthread_join(tid[t], NULL);
        total += sum[t];
    }
    printf("fib(%ld) x %ld x %ld threads = %ld\n", n, itr, nthreads, total);
    free(tid);
    free(sum);
    return 0;
}
