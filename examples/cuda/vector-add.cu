// Vector add with host<->device copies, a memset, and timed spin kernels.
//   vector-add [n]   n floats per vector (default 1048576)
// Exact work: 3 cudaMalloc (n*4 bytes each), 2 HtoD copies of n*4 bytes, 1 cudaMemset of n*4
// bytes, 1 vector_add kernel, 1 DtoH copy of n*4 bytes, then 5 spin kernels of about 10 ms, each
// timed with CUDA events (printed as "spin <i> event_ms=<ms>"), 3 cudaFree.
#include "common.h"
#include <vector>

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}

__global__ void spin(long long cycles, int *out)
{
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
    if (threadIdx.x == 0) {
        out[blockIdx.x] = 1;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 1 << 20;
    size_t bytes = (size_t)n * sizeof(float);
    std::vector<float> a(n), b(n), c(n);
    for (int i = 0; i < n; i++) {
        a[i] = (float)i;
        b[i] = 2.0f * (float)i;
    }
    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, bytes));
    CHECK(cudaMalloc(&db, bytes));
    CHECK(cudaMalloc(&dc, bytes));
    CHECK(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dc, 0, bytes));
    vector_add<<<(n + 255) / 256, 256>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        if (c[i] != 3.0f * (float)i) {
            std::fprintf(stderr, "mismatch at %d\n", i);
            return 1;
        }
    }
    int clock_khz = 0;
    CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    long long cycles = (long long)clock_khz * 10; // about 10 ms
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < 5; i++) {
        CHECK(cudaEventRecord(start));
        spin<<<1, 32>>>(cycles, (int *)dc);
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        std::printf("spin %d event_ms=%.6f\n", i, ms);
    }
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    std::printf("vector-add ok n=%d\n", n);
    return 0;
}
