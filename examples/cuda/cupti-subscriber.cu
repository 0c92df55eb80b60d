// A program that is itself a CUPTI client: it subscribes to CUPTI callbacks before its first
// CUDA call, then runs one kernel. Under a profiler that also subscribes, one of the two is
// refused (CUPTI allows one subscriber); this program only reports whether it got its own
// subscription, and runs on either way.
#include "common.h"
#include <cupti.h>

__global__ void one(int *x)
{
    x[0] = 1;
}

static void CUPTIAPI on_callback(void *, CUpti_CallbackDomain, CUpti_CallbackId, const void *) {}

int main()
{
    CUpti_SubscriberHandle subscriber;
    CUptiResult rc = cuptiSubscribe(&subscriber, on_callback, nullptr);
    const char *text = "";
    cuptiGetResultString(rc, &text);
    std::printf("own cupti subscription: %s\n", rc == CUPTI_SUCCESS ? "ok" : text);
    int *d;
    CHECK(cudaMalloc(&d, sizeof(int)));
    one<<<1, 1>>>(d);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(d));
    std::printf("cupti-subscriber ok\n");
    return 0;
}
