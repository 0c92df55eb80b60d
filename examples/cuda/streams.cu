// Several streams with asynchronous copies and kernels that overlap.
//   streams [nstreams] [rounds]   (default 4 streams, 3 rounds)
// Per stream and round: one HtoD cudaMemcpyAsync of 1 MiB (pinned host memory), one scale
// kernel, one DtoH cudaMemcpyAsync of 1 MiB. Streams are created non-blocking.
#include "common.h"
#include <vector>

__global__ void scale(float *x, int n, float f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        for (int k = 0; k < 200; k++) {
            x[i] = x[i] * f + 0.5f;
        }
    }
}

int main(int argc, char **argv)
{
    int nstreams = argc > 1 ? std::atoi(argv[1]) : 4;
    int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
    const int n = 1 << 18; // 1 MiB of floats
    const size_t bytes = (size_t)n * sizeof(float);
    std::vector<cudaStream_t> streams(nstreams);
    std::vector<float *> host(nstreams), dev(nstreams);
    for (int s = 0; s < nstreams; s++) {
        CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
        CHECK(cudaMallocHost(&host[s], bytes));
        CHECK(cudaMalloc(&dev[s], bytes));
        for (int i = 0; i < n; i++) {
            host[s][i] = 1.0f;
        }
    }
    for (int r = 0; r < rounds; r++) {
        for (int s = 0; s < nstreams; s++) {
            CHECK(cudaMemcpyAsync(dev[s], host[s], bytes, cudaMemcpyHostToDevice, streams[s]));
            scale<<<(n + 255) / 256, 256, 0, streams[s]>>>(dev[s], n, 1.0f);
            CHECK(cudaMemcpyAsync(host[s], dev[s], bytes, cudaMemcpyDeviceToHost, streams[s]));
        }
    }
    CHECK(cudaDeviceSynchronize());
    for (int s = 0; s < nstreams; s++) {
        CHECK(cudaStreamDestroy(streams[s]));
        CHECK(cudaFreeHost(host[s]));
        CHECK(cudaFree(dev[s]));
    }
    std::printf("streams ok streams=%d rounds=%d\n", nstreams, rounds);
    return 0;
}
