// Launch-bound loop: many empty kernels back to back (the profiler's cost per launch).
//   launch-loop [count]   (default 100000)
// Prints "launch-loop count=<n> ns_per_launch=<x> enqueue_ns_per_launch=<y>" for the launch loop
// alone: host time from the first launch to the end of the final synchronisation, and to the
// return of the last launch (the host's own cost per launch when the GPU keeps up).
#include "common.h"
#include <chrono>

__global__ void empty() {}

int main(int argc, char **argv)
{
    long count = argc > 1 ? std::atol(argv[1]) : 100000;
    CHECK(cudaFree(0));
    empty<<<1, 1>>>(); // warm-up: module load
    CHECK(cudaDeviceSynchronize());
    auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < count; i++) {
        empty<<<1, 1>>>();
    }
    auto tq = std::chrono::steady_clock::now();
    CHECK(cudaDeviceSynchronize());
    auto t1 = std::chrono::steady_clock::now();
    double ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
    double enqueue = std::chrono::duration<double, std::nano>(tq - t0).count();
    std::printf("launch-loop count=%ld ns_per_launch=%.1f enqueue_ns_per_launch=%.1f\n", count,
                ns / (double)count, enqueue / (double)count);
    return 0;
}
