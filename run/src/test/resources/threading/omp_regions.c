/*
 * OpenMP regions with known counts (OmptIT): "omp_regions <regions>" runs <regions> parallel
 * regions on the threads OMP_NUM_THREADS asks for; each has one worksharing loop (a sum, with a
 * reduction) and one single construct. Prints the number of threads and the sum.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

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
    return 0;
}
