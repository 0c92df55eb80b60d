// Two host threads, each launching kernels on its own stream.
//   two-threads [launches]   launches per thread (default 50)
// Thread t launches `launches` work_t<t> kernels (work_a on thread 0, work_b on thread 1).
#include "common.h"
#include <thread>

__global__ void work_a(float *x)
{
    x[threadIdx.x] = x[threadIdx.x] * 0.5f + 1.0f;
}

__global__ void work_b(float *x)
{
    x[threadIdx.x] = x[threadIdx.x] * 2.0f - 1.0f;
}

static void run(int which, int launches)
{
    cudaStream_t s;
    float *x;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaMalloc(&x, 64 * sizeof(float)));
    for (int i = 0; i < launches; i++) {
        if (which == 0) {
            work_a<<<1, 64, 0, s>>>(x);
        } else {
            work_b<<<1, 64, 0, s>>>(x);
        }
    }
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaFree(x));
    CHECK(cudaStreamDestroy(s));
}

int main(int argc, char **argv)
{
    int launches = argc > 1 ? std::atoi(argv[1]) : 50;
    CHECK(cudaFree(0)); // initialise the context before the threads race for it
    std::thread t0(run, 0, launches);
    std::thread t1(run, 1, launches);
    t0.join();
    t1.join();
    std::printf("two-threads ok launches=%d\n", launches);
    return 0;
}
