/*
 * Three CPU-bound threads for call-stack sampling tests: the main thread runs main_work(),
 * two threads it starts run work_a() and work_b(). Each thread gets its own sampled track and
 * profile. Built -O2 -fomit-frame-pointer (see Makefile).
 *
 *   threads-hot [units]      (default 300; one unit is about a million loop iterations)
 */
#include <pthread.h>
#include <stdlib.h>

static volatile double sink[3];

__attribute__((noipa)) static double spin(long n, long salt)
{
    double x = 0;
    for(long i = 0; i < n; ++i)
        x += (double) ((i + salt) ^ 0x2d2d) / (double) (i + 1);
    return x;
}

__attribute__((noipa)) static void work_a(long units) { sink[1] = spin(units * 1000000, 1); }
__attribute__((noipa)) static void work_b(long units) { sink[2] = spin(units * 1000000, 2); }
__attribute__((noipa)) static void main_work(long units) { sink[0] = spin(units * 1000000, 3); }

static void* thread_a(void* arg) { work_a((long) arg); return NULL; }
static void* thread_b(void* arg) { work_b((long) arg); return NULL; }

int main(int argc, char** argv)
{
    long      units = argc > 1 ? atol(argv[1]) : 300;
    pthread_t a, b;
    pthread_create(&a, NULL, thread_a, (void*) units);
    pthread_create(&b, NULL, thread_b, (void*) units);
    main_work(units);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
