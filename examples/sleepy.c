/*
 * A thread that sleeps most of the time, for wall-clock (realtime) sampling tests: each round,
 * sleepy() sleeps 20 ms in nanosleep and busy() computes for about 5 ms, so a wall-clock sampler
 * sees sleepy in about 80 % of the main thread's samples while a CPU-time sampler sees mostly busy.
 *
 *   sleepy [rounds] [threads]   (default 20 rounds; with "threads", two more threads run
 *                                worker_one() and worker_two(), the same loop, as threads 1 and 2)
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile double sink;

__attribute__((noinline)) static void sleepy(void)
{
    struct timespec ts = {0, 20 * 1000 * 1000};
    while(nanosleep(&ts, &ts) != 0)
    {
    }
}

__attribute__((noinline)) static void busy(void)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    do
    {
        for(int i = 0; i < 10000; ++i)
            sink += (double) (i ^ 0x5a5a) / (double) (i + 1);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    } while((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 5 * 1000 * 1000);
}

static long rounds = 20;

static void loop(void)
{
    for(long r = 0; r < rounds; ++r)
    {
        sleepy();
        busy();
    }
}

__attribute__((noinline)) static void* worker_one(void* arg)
{
    (void) arg;
    loop();
    return NULL;
}

__attribute__((noinline)) static void* worker_two(void* arg)
{
    (void) arg;
    loop();
    return NULL;
}

int main(int argc, char** argv)
{
    if(argc > 1) rounds = atol(argv[1]);
    int       threads = argc > 2 && strcmp(argv[2], "threads") == 0;
    pthread_t one, two;
    if(threads)
    {
        pthread_create(&one, NULL, worker_one, NULL);
        pthread_create(&two, NULL, worker_two, NULL);
    }
    loop();
    if(threads)
    {
        pthread_join(one, NULL);
        pthread_join(two, NULL);
    }
    return 0;
}
