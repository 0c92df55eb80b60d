// NVTX ranges nested three deep around kernels, plus marks and a start/end range.
//   outer (push)
//     mark "begin-work"
//     middle (push)  x2
//       inner (push): one tick kernel
//   start/end range "async-range" around the whole run (nvtxRangeStartA / nvtxRangeEnd)
//   domain "demo-domain": one pushed range "domain-range" (nvtxDomainRangePushEx) with a kernel
#include "common.h"
#include <nvtx3/nvToolsExt.h>

__global__ void tick(int *x)
{
    x[threadIdx.x] += 1;
}

int main()
{
    int *d;
    CHECK(cudaMalloc(&d, 32 * sizeof(int)));
    nvtxRangeId_t whole = nvtxRangeStartA("async-range");
    nvtxRangePushA("outer");
    nvtxMarkA("begin-work");
    for (int m = 0; m < 2; m++) {
        nvtxRangePushA("middle");
        nvtxRangePushA("inner");
        tick<<<1, 32>>>(d);
        CHECK(cudaDeviceSynchronize());
        nvtxRangePop();
        nvtxRangePop();
    }
    nvtxRangePop();
    nvtxDomainHandle_t domain = nvtxDomainCreateA("demo-domain");
    nvtxEventAttributes_t attr = {};
    attr.version = NVTX_VERSION;
    attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attr.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attr.message.ascii = "domain-range";
    nvtxDomainRangePushEx(domain, &attr);
    tick<<<1, 32>>>(d);
    CHECK(cudaDeviceSynchronize());
    nvtxDomainRangePop(domain);
    nvtxRangeEnd(whole);
    CHECK(cudaFree(d));
    std::printf("nvtx ok\n");
    return 0;
}
