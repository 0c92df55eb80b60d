// Templated kernels in a namespace (demangled names in the trace).
// Launches demo::axpy<float, 4> twice, demo::axpy<double, 8> once and
// demo::detail::fill<int> once.
#include "common.h"

namespace demo {
namespace detail {
template <typename T> __global__ void fill(T *x, int n, T v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] = v;
    }
}
} // namespace detail

template <typename T, int Unroll> __global__ void axpy(T a, const T *x, T *y, int n)
{
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * Unroll;
#pragma unroll
    for (int k = 0; k < Unroll; k++) {
        if (i + k < n) {
            y[i + k] += a * x[i + k];
        }
    }
}
} // namespace demo

int main()
{
    const int n = 1 << 16;
    float *xf, *yf;
    double *xd, *yd;
    int *xi;
    CHECK(cudaMalloc(&xf, n * sizeof(float)));
    CHECK(cudaMalloc(&yf, n * sizeof(float)));
    CHECK(cudaMalloc(&xd, n * sizeof(double)));
    CHECK(cudaMalloc(&yd, n * sizeof(double)));
    CHECK(cudaMalloc(&xi, n * sizeof(int)));
    demo::axpy<float, 4><<<n / 4 / 128, 128>>>(2.0f, xf, yf, n);
    demo::axpy<float, 4><<<n / 4 / 128, 128>>>(3.0f, xf, yf, n);
    demo::axpy<double, 8><<<n / 8 / 64, 64>>>(2.0, xd, yd, n);
    demo::detail::fill<int><<<n / 256, 256>>>(xi, n, 7);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(xf));
    CHECK(cudaFree(yf));
    CHECK(cudaFree(xd));
    CHECK(cudaFree(yd));
    CHECK(cudaFree(xi));
    std::printf("templated ok\n");
    return 0;
}
