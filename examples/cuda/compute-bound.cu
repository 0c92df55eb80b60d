// Compute-bound: at least 5 s of floating-point kernels (the profiler's slowdown of GPU-heavy
// programs).
//   compute-bound [seconds]   (default 6)
// Times one kernel with CUDA events, then launches enough of them to fill `seconds`, and prints
// "compute-bound launches=<n> kernel_ms=<one kernel> wall_s=<seconds for the n launches>".
#include "common.h"
#include <chrono>

__global__ void fma_loop(float *x, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = x[i], b = 1.0001f, c = 0.9999f;
    for (int k = 0; k < iters; k++) {
        a = fmaf(a, b, c);
        b = fmaf(b, c, a);
    }
    x[i] = a + b;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? std::atof(argv[1]) : 6.0;
    const int blocks = 132 * 8, threads = 256, iters = 200000;
    float *x;
    CHECK(cudaMalloc(&x, (size_t)blocks * threads * sizeof(float)));
    CHECK(cudaMemset(x, 0, (size_t)blocks * threads * sizeof(float)));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start));
    fma_loop<<<blocks, threads>>>(x, iters);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    int launches = (int)(seconds * 1000.0 / ms) + 1;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < launches; i++) {
        fma_loop<<<blocks, threads>>>(x, iters);
    }
    CHECK(cudaDeviceSynchronize());
    auto t1 = std::chrono::steady_clock::now();
    std::printf("compute-bound launches=%d kernel_ms=%.3f wall_s=%.4f\n", launches, ms,
                std::chrono::duration<double>(t1 - t0).count());
    CHECK(cudaFree(x));
    return 0;
}
