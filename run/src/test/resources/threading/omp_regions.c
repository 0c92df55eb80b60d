/*
 * OpenMP regions with known counts (OmptIT): "omp_regions <regions>" runs <regions> parallel
 * regions on the threads OMP_NUM_THREADS asks for; each has one worksharing loop (a sum, with a
 * reduction) and one single construct. Prints the number of threads and the sum. With a second
 * argument it then times (nearly) empty parallel regions: "region_ns=" the best of 5 rounds of 2000.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
    int regions = argc > 1 ? atoi(argv[1]) : 10;
    long total = 0;
    int threads = 0;
    for (int r = 0; r < regions; r++) {
        long sum = 0;
#pragma omp parallel
        {
#pragma omp for reduction(+ : sum)
            for (int i = 0; i < 100000; i++) {
                sum += i % 7;
            }
#pragma omp single
            threads = omp_get_num_threads();
        }
        total += sum;
    }
    printf("threads=%d total=%ld\n", threads, total);
    if (argc > 2) {
        static long entered;
        double best = 1e30;
        for (int round = 0; round < 5; round++) {
            struct timespec t0, t1;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            for (int i = 0; i < 2000; i++) {
#pragma omp parallel
                __atomic_fetch_add(&entered, 1, __ATOMIC_RELAXED); /* kept: clang drops an empty region */
            }
            clock_gettime(CLOCK_MONOTONIC, &t1);
            double ns = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 2000;
            best = ns < best ? ns : best;
        }
        printf("region_ns=%.0f entered=%ld\n", best, entered);
    }
    return 0;
}
