// The call sequence of upstream's examples/roctx/roctx.cpp (rocprofiler-systems), for the opt-in
// real-SDK test (RealSdkTest): markers and ranges on the main thread and on a worker, one kernel
// per gpu_workload(). Build: hipcc -o roctx roctx.cpp -lrocprofiler-sdk-roctx
#include <hip/hip_runtime.h>
#include <rocprofiler-sdk-roctx/roctx.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            std::fprintf(stderr, "%s: %s\n", #call, hipGetErrorString(e_));                        \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

__global__ void hipKernelLaunch(int* data) { data[threadIdx.x + blockIdx.x * blockDim.x] += 1; }

static void gpu_workload()
{
    roctx_range_id_t range = roctxRangeStart("roctxRangeStart_GPU_Compute");
    roctxRangePush("roctxRangePush_HIP_Kernel");
    int* d = nullptr;
    CHECK(hipMalloc(&d, 256 * sizeof(int)));
    hipLaunchKernelGGL(hipKernelLaunch, dim3(1), dim3(256), 0, 0, d);
    CHECK(hipDeviceSynchronize());
    CHECK(hipFree(d));
    roctxRangePop();
    roctxRangeStop(range);
}

int main()
{
    int device = 0;
    CHECK(hipGetDevice(&device));
    hipStream_t stream;
    CHECK(hipStreamCreate(&stream));
    roctxMark("roctxMark_GPU_workload");
    roctxRangePush("roctxRangePush_run_profiling");
    gpu_workload();
    roctx_thread_id_t tid{};
    roctxGetThreadId(&tid);
    roctxProfilerPause(tid);
    roctxMark("roctxMark_RoctxProfilerPause_End");
    std::thread worker([] {
        roctxMark("roctxMark_Thread_Start");
        gpu_workload();
        roctxMark("roctxMark_End");
    });
    worker.join();
    roctxProfilerResume(tid);
    roctxRangePop();
    roctxMark("roctxMark_Finished_GPU");
    CHECK(hipStreamDestroy(stream));
    return 0;
}
