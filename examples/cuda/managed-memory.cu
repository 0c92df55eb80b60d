// Unified (managed) memory with known volumes: a 256 MiB managed array is first touched by a
// kernel (pages are created in GPU memory, GPU page faults), then read on the CPU (256 MiB move
// device to host, CPU page faults), then its first 64 MiB are prefetched back to the GPU (64 MiB
// host to device, triggered by a prefetch). Prints the expected volumes for the tests.
#include "common.h"

#include <cstdint>

__global__ void fill(uint32_t *a, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        a[i] = (uint32_t)i;
    }
}

__global__ void touch(const uint32_t *a, size_t n, uint64_t *sum)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    uint64_t s = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        s += a[i];
    }
    atomicAdd((unsigned long long *)sum, (unsigned long long)s);
}

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 256;
    size_t prefetch_mib = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 64;
    size_t bytes = mib << 20, n = bytes / sizeof(uint32_t);
    int device = 0;
    CHECK(cudaSetDevice(device));
    uint32_t *a = nullptr;
    uint64_t *sum = nullptr;
    CHECK(cudaMallocManaged(&a, bytes));
    CHECK(cudaMallocManaged(&sum, sizeof *sum));
    fill<<<1024, 256>>>(a, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    uint64_t host_sum = 0;
    for (size_t i = 0; i < n; i++) {
        host_sum += a[i];
    }

    cudaMemLocation where{};
    where.type = cudaMemLocationTypeDevice;
    where.id = device;
    CHECK(cudaMemPrefetchAsync(a, prefetch_mib << 20, where, 0, 0));
    *sum = 0;
    touch<<<1024, 256>>>(a, (prefetch_mib << 20) / sizeof(uint32_t), sum);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::printf("host_sum=%llu gpu_sum=%llu\n", (unsigned long long)host_sum, (unsigned long long)*sum);
    std::printf("expect dtoh_bytes=%zu htod_bytes=%zu\n", bytes, prefetch_mib << 20);
    CHECK(cudaFree(a));
    CHECK(cudaFree(sum));
    return 0;
}
