/*
 * Scripted ROCm sessions for the replay SDK (replay_sdk.c): each scenario does, call for call, what
 * one of upstream's example programs does (rocprofiler-systems/examples: roctx, transpose, the
 * rccl-tests all_reduce, videodecode, jpegdecode), with the SDK's callbacks and buffer records
 * replayed instead of a GPU doing the work. Usage: replay_app <scenario> [iterations]
 *   roctx       examples/roctx/roctx.cpp (main thread, a worker thread, nested ranges)
 *   transpose   examples/transpose: 2 threads, each its own stream: 2 hipMalloc, 2 hipMemsetAsync
 *               (fill kernels), HtoD copy, N transpose_a kernels, DtoH copy, 2 hipFree
 *   rccl        an RCCL all-reduce of 1 Mi floats (rccl-tests all_reduce, one rank)
 *   rocdecode   two video parsers created and destroyed around one decoder (videodecode)
 *   rocjpeg     one rocJPEG handle decoding one image (jpegdecode)
 *   scratch     a kernel that needs scratch memory: alloc, kernel, async reclaim
 *   killed      20 kernels, a pause longer than the tool's flush period, then SIGKILL
 *   migrate     managed memory on GPU 0: two GPU faults each migrating 2 MiB host to device, a
 *               kernel, 64 KiB migrated back when the CPU reads, a 1 MiB prefetch to the GPU
 *   operations  two operations of every API domain the tool traces (a roctx mark and a range for
 *               the marker API) and a copy each way: for the per-domain operation filters
 * Test code only.
 */
#include "replay_sdk.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { K_TRANSPOSE = 1, K_FILL = 2, K_HIPKERNEL = 3, K_NCCL = 4, K_SCRATCHY = 5, K_STEP = 6 };

static uint64_t dispatch_ids;

static uint64_t hip(const char *f, uint64_t stream)
{
    return replay_call(RSDK_CB_HIP_RUNTIME_API, f, NULL, 0, stream, "", 5);
}

static uint64_t hip_args(const char *f, const struct replay_arg *a, int n, uint64_t stream)
{
    return replay_call(RSDK_CB_HIP_RUNTIME_API, f, a, n, stream, "", 5);
}

static void roctx(const char *f, const char *message)
{
    replay_call(RSDK_CB_MARKER_CORE_API, f, NULL, 0, 0, message != NULL ? message : "", 2);
}

/* a launch call and the dispatch it caused, starting 2 us after the call returned, lasting dur_us */
static void launch(uint64_t stream, uint64_t queue, uint64_t kernel, uint32_t grid, uint32_t wg, unsigned dur_us,
                   uint32_t private_segment)
{
    struct replay_arg a[] = {{"stream", stream ? "0x5a5a0001" : "0"}, {"sharedMemBytes", "0"}};
    uint64_t corr = hip_args("hipLaunchKernel", a, 2, stream);
    uint64_t b = replay_now() + 2000;
    replay_kernel(corr, 0, queue, kernel, ++dispatch_ids, b, b + dur_us * 1000ull, grid, wg, private_segment, 4096);
}

static void copy(const char *f, uint64_t stream, int direction, uint64_t bytes)
{
    uint64_t corr = hip(f, stream);
    uint64_t begin = replay_now();
    int dst = direction == 2 ? 1 : 0, src = direction == 2 ? 0 : 1;
    replay_copy(corr, direction, dst, src, bytes, begin + 8000, begin + 8000 + bytes / 16);
}

/* ---- roctx ---------------------------------------------------------------------------------------------- */

static void gpu_workload(void)
{
    roctx("roctxRangeStartA", "roctxRangeStart_GPU_Compute");
    roctx("roctxRangePushA", "roctxRangePush_HIP_Kernel");
    hip("hipMalloc", 0);
    launch(0, 1, K_HIPKERNEL, 256, 256, 20, 0);
    hip("hipDeviceSynchronize", 0);
    hip("hipFree", 0);
    roctx("roctxRangePop", NULL);
    roctx("roctxRangeStop", NULL);
}

static void *roctx_thread(void *arg)
{
    (void)arg;
    roctx("roctxMarkA", "roctxMark_Thread_Start");
    gpu_workload();
    roctx("roctxMarkA", "roctxMark_End");
    return NULL;
}

static void scenario_roctx(void)
{
    hip("hipGetDevice", 0);
    hip("hipStreamCreate", 0);
    roctx("roctxMarkA", "roctxMark_GPU_workload");
    roctx("roctxRangePushA", "roctxRangePush_run_profiling");
    gpu_workload();
    roctx("roctxGetThreadId", NULL);
    roctx("roctxMarkA", "roctxMark_RoctxProfilerPause_End");
    pthread_t t;
    pthread_create(&t, NULL, roctx_thread, NULL);
    pthread_join(t, NULL);
    roctx("roctxRangePop", NULL);
    roctx("roctxMarkA", "roctxMark_Finished_GPU");
    hip("hipStreamDestroy", 0);
}

/* ---- transpose ------------------------------------------------------------------------------------------ */

static int iterations = 10;

struct worker {
    uint64_t stream, queue;
};

static void *transpose_thread(void *arg)
{
    const struct worker *w = arg;
    const uint64_t size = 4096ull * 4096 * 4;
    hip("hipMalloc", 0);
    hip("hipMalloc", 0);
    for (int i = 0; i < 2; i++) {
        launch(w->stream, w->queue, K_FILL, 65536, 256, 30, 0); /* hipMemsetAsync runs a fill kernel */
    }
    copy("hipMemcpyAsync", w->stream, 2, size);
    hip("hipStreamSynchronize", w->stream);
    for (int i = 0; i < iterations; i++) {
        launch(w->stream, w->queue, K_TRANSPOSE, 16384, 1024, 50, 0);
        hip("hipGetLastError", 0);
    }
    hip("hipStreamSynchronize", w->stream);
    copy("hipMemcpyAsync", w->stream, 3, size);
    hip("hipStreamSynchronize", w->stream);
    hip("hipFree", 0);
    hip("hipFree", 0);
    return NULL;
}

static void scenario_transpose(void)
{
    hip("hipGetDeviceCount", 0);
    hip("hipSetDevice", 0);
    struct worker w[2] = {{1, 0x7f0000001000ull}, {2, 0x7f0000002000ull}};
    hip("hipStreamCreate", 0);
    hip("hipStreamCreate", 0);
    pthread_t t;
    pthread_create(&t, NULL, transpose_thread, &w[1]);
    transpose_thread(&w[0]);
    pthread_join(t, NULL);
    hip("hipStreamDestroy", 0);
    hip("hipStreamDestroy", 0);
    hip("hipDeviceSynchronize", 0);
    hip("hipDeviceReset", 0);
}

/* ---- RCCL all-reduce --------------------------------------------------------------------------------------- */

static void scenario_rccl(void)
{
    hip("hipSetDevice", 0);
    hip("hipStreamCreate", 0);
    replay_call(RSDK_CB_RCCL_API, "ncclGetUniqueId", NULL, 0, 0, "", 5);
    replay_call(RSDK_CB_RCCL_API, "ncclCommInitRank", NULL, 0, 0, "", 50);
    hip("hipMalloc", 0);
    hip("hipMalloc", 0);
    /* ncclFloat32 is 7 in rccl.h's ncclDataType_t; the SDK prints enum arguments as numbers */
    struct replay_arg a[] = {{"sendbuff", "0x7f1000000000"}, {"recvbuff", "0x7f1000400000"}, {"count", "1048576"},
                             {"datatype", "7"},              {"op", "0"},                    {"comm", "0x1"},
                             {"stream", "0x5a5a0001"}};
    uint64_t corr = replay_call(RSDK_CB_RCCL_API, "ncclAllReduce", a, 7, 1, "", 20);
    uint64_t begin = replay_now();
    replay_kernel(corr, 0, 0x7f0000001000ull, K_NCCL, ++dispatch_ids, begin + 15000, begin + 215000, 1, 256, 0, 0);
    hip("hipStreamSynchronize", 1);
    replay_call(RSDK_CB_RCCL_API, "ncclCommDestroy", NULL, 0, 0, "", 5);
}

/* ---- rocDecode / rocJPEG ----------------------------------------------------------------------------------- */

static void dec(const char *f)
{
    replay_call(RSDK_CB_ROCDECODE_API, f, NULL, 0, 0, "", 10);
}

static void scenario_rocdecode(void)
{
    dec("rocDecCreateVideoParser");
    dec("rocDecCreateDecoder");
    for (int i = 0; i < 3; i++) {
        dec("rocDecParseVideoData");
        dec("rocDecDecodeFrame");
        dec("rocDecGetVideoFrame");
    }
    dec("rocDecDestroyVideoParser");
    dec("rocDecCreateVideoParser");
    dec("rocDecDestroyVideoParser");
    dec("rocDecDestroyDecoder");
}

static void jpeg(const char *f)
{
    replay_call(RSDK_CB_ROCJPEG_API, f, NULL, 0, 0, "", 10);
}

static void scenario_rocjpeg(void)
{
    jpeg("rocJpegCreate");
    jpeg("rocJpegStreamCreate");
    jpeg("rocJpegStreamParse");
    jpeg("rocJpegGetImageInfo");
    jpeg("rocJpegDecode");
    jpeg("rocJpegStreamDestroy");
    jpeg("rocJpegDestroy");
}

/* ---- scratch memory and a killed process ---------------------------------------------------------------------- */

static void scenario_scratch(void)
{
    uint64_t begin = replay_now();
    replay_scratch(1, 0, 0x7f0000001000ull, 64ull << 20, begin + 1000, begin + 4000);
    launch(0, 0x7f0000001000ull, K_SCRATCHY, 1024, 64, 40, 16384);
    hip("hipDeviceSynchronize", 0);
    uint64_t end = replay_now();
    replay_scratch(3, 0, 0x7f0000001000ull, 64ull << 20, end, end + 2000);
}

static void scenario_killed(void)
{
    for (int i = 0; i < 20; i++) {
        launch(0, 0x7f0000001000ull, K_STEP, 64, 64, 10, 0);
    }
    hip("hipDeviceSynchronize", 0);
    usleep(500000); /* five flush periods */
    printf("killing\n");
    fflush(stdout);
    raise(SIGKILL);
}

static void scenario_migrate(void)
{
    const uint64_t base = 0x7f2000000000ull, mib = 1ull << 20;
    hip("hipMallocManaged", 0);
    uint64_t t = replay_now();
    replay_page_fault(0, base, t, t + 1000);
    replay_page_migrate(0, 1, base, 2 * mib, t + 1000, t + 201000, 0);
    replay_page_fault(0, base + 2 * mib, t + 300000, t + 301000);
    replay_page_migrate(0, 1, base + 2 * mib, 2 * mib, t + 301000, t + 501000, 0);
    launch(0, 1, K_HIPKERNEL, 1 << 20, 256, 100, 0);
    hip("hipDeviceSynchronize", 0);
    t = replay_now();
    replay_page_migrate(1, 0, base, 64 * 1024, t, t + 20000, 0);
    hip("hipMemPrefetchAsync", 0);
    t = replay_now();
    replay_page_migrate(0, 1, base + 4 * mib, mib, t + 1000, t + 101000, 1);
    hip("hipDeviceSynchronize", 0);
    hip("hipFree", 0);
}

/* ---- two operations of every traced API domain, and copies both ways ------------------------------------ */

static void scenario_operations(void)
{
    static const struct {
        int32_t kind;
        const char *first, *second;
    } ops[] = {
        {RSDK_CB_HSA_CORE_API, "hsa_init", "hsa_agent_get_info"},
        {RSDK_CB_HSA_AMD_EXT_API, "hsa_amd_memory_pool_allocate", "hsa_amd_agents_allow_access"},
        {RSDK_CB_HSA_IMAGE_EXT_API, "hsa_ext_image_create", "hsa_ext_image_destroy"},
        {RSDK_CB_HSA_FINALIZE_EXT_API, "hsa_ext_program_create", "hsa_ext_program_finalize"},
        {RSDK_CB_HIP_RUNTIME_API, "hipMalloc", "hipFree"},
        {RSDK_CB_HIP_COMPILER_API, "__hipRegisterFunction", "__hipPushCallConfiguration"},
        {RSDK_CB_RCCL_API, "ncclGetUniqueId", "ncclCommDestroy"},
        {RSDK_CB_ROCDECODE_API, "rocDecCreateDecoder", "rocDecDestroyDecoder"},
        {RSDK_CB_ROCJPEG_API, "rocJpegCreate", "rocJpegDestroy"},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        replay_call(ops[i].kind, ops[i].first, NULL, 0, 0, "", 5);
        replay_call(ops[i].kind, ops[i].second, NULL, 0, 0, "", 5);
    }
    roctx("roctxMarkA", "mark_one");
    roctx("roctxRangePushA", "range_one");
    roctx("roctxRangePop", NULL);
    copy("hipMemcpy", 0, 2, 1 << 20);
    copy("hipMemcpy", 0, 3, 1 << 20);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: replay_app <scenario> [iterations]\n");
        return 2;
    }
    if (argc > 2) {
        iterations = atoi(argv[2]);
    }
    int tool = replay_init();
    printf("tool=%d\n", tool);
    /* the code object load: kernel symbols as the SDK names them */
    replay_kernel_symbol(K_TRANSPOSE, "_Z11transpose_aPiS_ii.kd");
    replay_kernel_symbol(K_FILL, "_Z30__amd_rocclr_fillBufferAlignedPvS_jjmm.kd");
    replay_kernel_symbol(K_HIPKERNEL, "_Z15hipKernelLaunchPi.kd");
    replay_kernel_symbol(K_NCCL, "ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)");
    replay_kernel_symbol(K_SCRATCHY, "_Z11big_privatePdi.kd");
    replay_kernel_symbol(K_STEP, "_Z4stepPi.kd");
    static const struct {
        const char *name;
        void (*run)(void);
    } scenarios[] = {
        {"roctx", scenario_roctx},         {"transpose", scenario_transpose}, {"rccl", scenario_rccl},
        {"rocdecode", scenario_rocdecode}, {"rocjpeg", scenario_rocjpeg},     {"scratch", scenario_scratch},
        {"migrate", scenario_migrate},     {"operations", scenario_operations}, {"killed", scenario_killed},
    };
    const char *s = argv[1];
    size_t i = 0;
    while (i < sizeof scenarios / sizeof scenarios[0] && strcmp(s, scenarios[i].name) != 0) {
        i++;
    }
    if (i == sizeof scenarios / sizeof scenarios[0]) {
        fprintf(stderr, "unknown scenario %s\n", s);
        return 2;
    }
    scenarios[i].run();
    printf("done %s\n", s);
    return 0;
}
