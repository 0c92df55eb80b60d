// Launch-bound loop: many empty kernels back to back (the profiler's cost per launch).
//   launch-loop [count]   (default 100000)
// Prints "launch-loop count=<n> ns_per_launch=<x>" for the launch loop alone (host time from
// the first launch to the end of the final synchronisation).
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
    CHECK(cudaDeviceSynchronize());
    auto t1 = std::chrono::steady_clock::now();
    double ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
    std::printf("launch-loop count=%ld ns_per_launch=%.1f\n", count, ns / (double)count);
    return 0;
}
