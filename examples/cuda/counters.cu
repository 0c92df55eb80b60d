// A kernel whose counters are known in advance, for checking GPU counter collection
// (ROCPROFSYS_CUDA_EVENTS): every thread reads one float4 (16 bytes) of an input much larger than
// the L2 cache, does `iters` dependent FMAs (fmaf with operands from memory, which the compiler
// cannot fold), and writes one float. Three launches with 64, 128 and 32 FMAs per thread, so
// each kernel's values tell which kernel they belong to.
//   counters [threads]   (default 16M threads: 256 MiB read per kernel)
// Prints one line per launch with the values CUPTI should report:
//   "counters launch=<n> iters=<k> threads=<t> ffma=<t*k> global_loads=<t/32> bytes_read=<16*t>"
// sm__sass_thread_inst_executed_op_ffma_pred_on.sum = ffma, smsp__sass_inst_executed_op_global_ld.sum
// = global_loads (one LDG.128 per warp), dram__bytes_read.sum ~ bytes_read.
#include "common.h"

__global__ void counted(const float4 *__restrict__ in, float *__restrict__ out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = in[i];
    float a = v.x;
    for (int k = 0; k < iters; k++) {
        a = fmaf(a, v.y, v.z);
    }
    out[i] = a + v.w;
}

int main(int argc, char **argv)
{
    const long threads = argc > 1 ? std::atol(argv[1]) : 16L << 20;
    const int block = 256;
    if (threads % block != 0) {
        std::fprintf(stderr, "threads must be a multiple of %d\n", block);
        return 2;
    }
    float4 *in;
    float *out;
    CHECK(cudaMalloc(&in, threads * sizeof(float4)));
    CHECK(cudaMalloc(&out, threads * sizeof(float)));
    CHECK(cudaMemset(in, 0, threads * sizeof(float4)));
    CHECK(cudaMemset(out, 0, threads * sizeof(float)));
    CHECK(cudaDeviceSynchronize());
    const int iters[] = {64, 128, 32};
    for (int n = 0; n < 3; n++) {
        counted<<<threads / block, block>>>(in, out, iters[n]);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        std::printf("counters launch=%d iters=%d threads=%ld ffma=%ld global_loads=%ld bytes_read=%ld\n", n,
                    iters[n], threads, threads * iters[n], threads / 32, threads * 16);
    }
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
