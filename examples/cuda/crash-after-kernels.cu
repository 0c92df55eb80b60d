// Crashes on the host (SIGSEGV) after its kernels have completed.
//   crash-after-kernels [kernels] [sleep_ms] [kill]   (default 20 kernels, 500 ms)
// Launches `kernels` step kernels, synchronises, prints "kernels done", sleeps sleep_ms (longer
// than the profiler's flush period) and writes through a null pointer; with "kill" it sends
// itself SIGKILL instead (no handler, no exit path runs).
#include "common.h"
#include <csignal>
#include <cstring>
#include <unistd.h>

__global__ void step(int *x)
{
    x[threadIdx.x] += 1;
}

int main(int argc, char **argv)
{
    int kernels = argc > 1 ? std::atoi(argv[1]) : 20;
    int sleep_ms = argc > 2 ? std::atoi(argv[2]) : 500;
    int *d;
    CHECK(cudaMalloc(&d, 32 * sizeof(int)));
    for (int i = 0; i < kernels; i++) {
        step<<<1, 32>>>(d);
    }
    CHECK(cudaDeviceSynchronize());
    std::printf("kernels done %d\n", kernels);
    std::fflush(stdout);
    usleep((useconds_t)sleep_ms * 1000);
    if (argc > 3 && std::strcmp(argv[3], "kill") == 0) {
        std::raise(SIGKILL);
    }
    volatile int *null_pointer = nullptr;
    *null_pointer = 1;
    return 0;
}
