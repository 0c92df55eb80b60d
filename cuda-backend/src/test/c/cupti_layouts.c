/*
 * Prints the size of each CUPTI activity record the decoder reads and the offset and size of each
 * of its fields, as compiled from the real CUPTI headers:
 *   <Record> size <bytes>
 *   <Record>.<field> <offset> <size>
 * The Java test (CuptiLayoutsTest) compares them with the decoder's own layouts.
 *   cc -I<cuda>/include cupti_layouts.c -o cupti_layouts
 */
#include <cupti.h>

#include <stddef.h>
#include <stdio.h>

/* S and F describe the record RECORD_NAME (its name in the output) of type RECORD_TYPE */
#define STR_(x) #x
#define STR(x) STR_(x)
#define S() printf(STR(RECORD_NAME) " size %zu\n", sizeof(RECORD_TYPE))
#define F(field)                                                                          \
    printf(STR(RECORD_NAME) "." #field " %zu %zu\n", offsetof(RECORD_TYPE, field),           \
           sizeof(((RECORD_TYPE *)0)->field))

int main(void)
{
#define RECORD_NAME Kernel
#define RECORD_TYPE CUpti_ActivityKernel10
    S();
    F(kind);
    F(cacheConfig);
    F(sharedMemoryConfig);
    F(registersPerThread);
    F(partitionedGlobalCacheRequested);
    F(partitionedGlobalCacheExecuted);
    F(start);
    F(end);
    F(completed);
    F(deviceId);
    F(contextId);
    F(streamId);
    F(gridX);
    F(gridY);
    F(gridZ);
    F(blockX);
    F(blockY);
    F(blockZ);
    F(staticSharedMemory);
    F(dynamicSharedMemory);
    F(localMemoryPerThread);
    F(localMemoryTotal);
    F(correlationId);
    F(gridId);
    F(name);
    F(reserved0);
    F(queued);
    F(submitted);
    F(launchType);
    F(isSharedMemoryCarveoutRequested);
    F(sharedMemoryCarveoutRequested);
    F(padding);
    F(sharedMemoryExecuted);
    F(graphNodeId);
    F(shmemLimitConfig);
    F(graphId);
    F(pAccessPolicyWindow);
    F(channelID);
    F(channelType);
    F(clusterX);
    F(clusterY);
    F(clusterZ);
    F(clusterSchedulingPolicy);
    F(localMemoryTotal_v2);
    F(maxPotentialClusterSize);
    F(maxActiveClusters);
    F(isDeviceLaunched);
    F(padding3);

#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME Memcpy
#define RECORD_TYPE CUpti_ActivityMemcpy6
    S();
    F(kind);
    F(copyKind);
    F(srcKind);
    F(dstKind);
    F(flags);
    F(bytes);
    F(start);
    F(end);
    F(deviceId);
    F(contextId);
    F(streamId);
    F(correlationId);
    F(runtimeCorrelationId);
    F(pad);
    F(reserved0);
    F(graphNodeId);
    F(graphId);
    F(channelID);
    F(channelType);
    F(isDeviceLaunched);
    F(pad2);
    F(copyCount);

#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME PeerCopy
#define RECORD_TYPE CUpti_ActivityMemcpyPtoP4
    S();
    F(kind);
    F(copyKind);
    F(srcKind);
    F(dstKind);
    F(flags);
    F(bytes);
    F(start);
    F(end);
    F(deviceId);
    F(contextId);
    F(streamId);
    F(srcDeviceId);
    F(srcContextId);
    F(dstDeviceId);
    F(dstContextId);
    F(correlationId);
    F(reserved0);
    F(graphNodeId);
    F(graphId);
    F(channelID);
    F(channelType);

#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME Memset
#define RECORD_TYPE CUpti_ActivityMemset4
    S();
    F(kind);
    F(value);
    F(bytes);
    F(start);
    F(end);
    F(deviceId);
    F(contextId);
    F(streamId);
    F(correlationId);
    F(flags);
    F(memoryKind);
    F(pad);
    F(reserved0);
    F(graphNodeId);
    F(graphId);
    F(channelID);
    F(channelType);
    F(isDeviceLaunched);
    F(pad2);

#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME Synchronization
#define RECORD_TYPE CUpti_ActivitySynchronization2
    S();
    F(kind);
    F(type);
    F(start);
    F(end);
    F(correlationId);
    F(contextId);
    F(streamId);
    F(cudaEventId);
    F(cudaEventSyncId);
    F(returnValue);
    F(pad);

#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME Memory
#define RECORD_TYPE CUpti_ActivityMemory4
    S();
    F(kind);
    F(memoryOperationType);
    F(memoryKind);
    F(correlationId);
    F(address);
    F(bytes);
    F(timestamp);
    F(PC);
    F(processId);
    F(deviceId);
    F(contextId);
    F(streamId);
    F(name);
    F(isAsync);
    F(pad1);
    F(memoryPoolConfig);
    F(source);

#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME Device
#define RECORD_TYPE CUpti_ActivityDevice5
    S();
    F(kind);
    F(flags);
    F(globalMemoryBandwidth);
    F(globalMemorySize);
    F(constantMemorySize);
    F(l2CacheSize);
    F(numThreadsPerWarp);
    F(coreClockRate);
    F(numMemcpyEngines);
    F(numMultiprocessors);
    F(maxIPC);
    F(maxWarpsPerMultiprocessor);
    F(maxBlocksPerMultiprocessor);
    F(maxSharedMemoryPerMultiprocessor);
    F(maxRegistersPerMultiprocessor);
    F(maxRegistersPerBlock);
    F(maxSharedMemoryPerBlock);
    F(maxThreadsPerBlock);
    F(maxBlockDimX);
    F(maxBlockDimY);
    F(maxBlockDimZ);
    F(maxGridDimX);
    F(maxGridDimY);
    F(maxGridDimZ);
    F(computeCapabilityMajor);
    F(computeCapabilityMinor);
    F(id);
    F(eccEnabled);
    F(uuid);
    F(name);
    F(isCudaVisible);
    F(isMigEnabled);
    F(reserved);
    F(gpuInstanceId);
    F(computeInstanceId);
    F(migUuid);
    F(isNumaNode);
    F(numaId);

#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME Context
#define RECORD_TYPE CUpti_ActivityContext3
    S();
    F(kind);
    F(contextId);
    F(deviceId);
    F(computeApiKind);
    F(nullStreamId);
    F(parentContextId);
    F(isGreenContext);
    F(padding);
    F(numMultiprocessors);
    F(cigMode);
    F(padding2);

#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME UnifiedMemoryCounter
#define RECORD_TYPE CUpti_ActivityUnifiedMemoryCounter3
    S();
    F(kind);
    F(counterKind);
    F(value);
    F(start);
    F(end);
    F(address);
    F(srcId);
    F(dstId);
    F(streamId);
    F(processId);
    F(flags);
    F(pad);
    F(processors);
    /* the params structs whose arguments are recorded (ApiParams) */
#undef RECORD_NAME
#undef RECORD_TYPE
/* the arguments of cudaLaunchKernel, the same in its per-thread-stream variant */
#define ARGS_cudaLaunchKernel F(func); F(gridDim); F(blockDim); F(args); F(sharedMem); F(stream)
#define RECORD_NAME cudaLaunchKernel_v7000_params
#define RECORD_TYPE cudaLaunchKernel_v7000_params
    S();
    ARGS_cudaLaunchKernel;
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cudaLaunchKernel_ptsz_v7000_params
#define RECORD_TYPE cudaLaunchKernel_ptsz_v7000_params
    S();
    ARGS_cudaLaunchKernel;
#undef RECORD_NAME
#undef RECORD_TYPE
/* the arguments of cudaMemcpy, the same in its per-thread-stream variant */
#define ARGS_cudaMemcpy F(dst); F(src); F(count); F(kind)
#define RECORD_NAME cudaMemcpy_v3020_params
#define RECORD_TYPE cudaMemcpy_v3020_params
    S();
    ARGS_cudaMemcpy;
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cudaMemcpy_ptds_v7000_params
#define RECORD_TYPE cudaMemcpy_ptds_v7000_params
    S();
    ARGS_cudaMemcpy;
#undef RECORD_NAME
#undef RECORD_TYPE
/* the arguments of cudaMemcpyAsync, the same in its per-thread-stream variant */
#define ARGS_cudaMemcpyAsync F(dst); F(src); F(count); F(kind); F(stream)
#define RECORD_NAME cudaMemcpyAsync_v3020_params
#define RECORD_TYPE cudaMemcpyAsync_v3020_params
    S();
    ARGS_cudaMemcpyAsync;
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cudaMemcpyAsync_ptsz_v7000_params
#define RECORD_TYPE cudaMemcpyAsync_ptsz_v7000_params
    S();
    ARGS_cudaMemcpyAsync;
#undef RECORD_NAME
#undef RECORD_TYPE
/* the arguments of cudaMemset, the same in its per-thread-stream variant */
#define ARGS_cudaMemset F(devPtr); F(value); F(count)
#define RECORD_NAME cudaMemset_v3020_params
#define RECORD_TYPE cudaMemset_v3020_params
    S();
    ARGS_cudaMemset;
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cudaMemset_ptds_v7000_params
#define RECORD_TYPE cudaMemset_ptds_v7000_params
    S();
    ARGS_cudaMemset;
#undef RECORD_NAME
#undef RECORD_TYPE
/* the arguments of cudaMemsetAsync, the same in its per-thread-stream variant */
#define ARGS_cudaMemsetAsync F(devPtr); F(value); F(count); F(stream)
#define RECORD_NAME cudaMemsetAsync_v3020_params
#define RECORD_TYPE cudaMemsetAsync_v3020_params
    S();
    ARGS_cudaMemsetAsync;
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cudaMemsetAsync_ptsz_v7000_params
#define RECORD_TYPE cudaMemsetAsync_ptsz_v7000_params
    S();
    ARGS_cudaMemsetAsync;
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cudaMalloc_v3020_params
#define RECORD_TYPE cudaMalloc_v3020_params
    S();
    F(devPtr);
    F(size);
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cudaFree_v3020_params
#define RECORD_TYPE cudaFree_v3020_params
    S();
    F(devPtr);
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cudaMallocHost_v3020_params
#define RECORD_TYPE cudaMallocHost_v3020_params
    S();
    F(ptr);
    F(size);
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cudaHostAlloc_v3020_params
#define RECORD_TYPE cudaHostAlloc_v3020_params
    S();
    F(pHost);
    F(size);
    F(flags);
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cudaFreeHost_v3020_params
#define RECORD_TYPE cudaFreeHost_v3020_params
    S();
    F(ptr);
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cudaMallocManaged_v6000_params
#define RECORD_TYPE cudaMallocManaged_v6000_params
    S();
    F(devPtr);
    F(size);
    F(flags);
#undef RECORD_NAME
#undef RECORD_TYPE
/* the arguments of cudaMallocAsync, the same in its per-thread-stream variant */
#define ARGS_cudaMallocAsync F(devPtr); F(size); F(hStream)
#define RECORD_NAME cudaMallocAsync_v11020_params
#define RECORD_TYPE cudaMallocAsync_v11020_params
    S();
    ARGS_cudaMallocAsync;
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cudaMallocAsync_ptsz_v11020_params
#define RECORD_TYPE cudaMallocAsync_ptsz_v11020_params
    S();
    ARGS_cudaMallocAsync;
#undef RECORD_NAME
#undef RECORD_TYPE
/* the arguments of cudaFreeAsync, the same in its per-thread-stream variant */
#define ARGS_cudaFreeAsync F(devPtr); F(hStream)
#define RECORD_NAME cudaFreeAsync_v11020_params
#define RECORD_TYPE cudaFreeAsync_v11020_params
    S();
    ARGS_cudaFreeAsync;
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cudaFreeAsync_ptsz_v11020_params
#define RECORD_TYPE cudaFreeAsync_ptsz_v11020_params
    S();
    ARGS_cudaFreeAsync;
#undef RECORD_NAME
#undef RECORD_TYPE
/* the arguments of cudaStreamSynchronize, the same in its per-thread-stream variant */
#define ARGS_cudaStreamSynchronize F(stream)
#define RECORD_NAME cudaStreamSynchronize_v3020_params
#define RECORD_TYPE cudaStreamSynchronize_v3020_params
    S();
    ARGS_cudaStreamSynchronize;
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cudaStreamSynchronize_ptsz_v7000_params
#define RECORD_TYPE cudaStreamSynchronize_ptsz_v7000_params
    S();
    ARGS_cudaStreamSynchronize;
#undef RECORD_NAME
#undef RECORD_TYPE
/* the arguments of cuLaunchKernel, the same in its per-thread-stream variant */
#define ARGS_cuLaunchKernel F(f); F(gridDimX); F(gridDimY); F(gridDimZ); F(blockDimX); F(blockDimY); F(blockDimZ); F(sharedMemBytes); F(hStream); F(kernelParams); F(extra)
#define RECORD_NAME cuLaunchKernel_params
#define RECORD_TYPE cuLaunchKernel_params
    S();
    ARGS_cuLaunchKernel;
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cuLaunchKernel_ptsz_params
#define RECORD_TYPE cuLaunchKernel_ptsz_params
    S();
    ARGS_cuLaunchKernel;
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cuMemcpyHtoD_v2_params
#define RECORD_TYPE cuMemcpyHtoD_v2_params
    S();
    F(dstDevice);
    F(srcHost);
    F(ByteCount);
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cuMemcpyDtoH_v2_params
#define RECORD_TYPE cuMemcpyDtoH_v2_params
    S();
    F(dstHost);
    F(srcDevice);
    F(ByteCount);
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cuMemcpyDtoD_v2_params
#define RECORD_TYPE cuMemcpyDtoD_v2_params
    S();
    F(dstDevice);
    F(srcDevice);
    F(ByteCount);
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cuMemcpyHtoDAsync_v2_params
#define RECORD_TYPE cuMemcpyHtoDAsync_v2_params
    S();
    F(dstDevice);
    F(srcHost);
    F(ByteCount);
    F(hStream);
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cuMemcpyDtoHAsync_v2_params
#define RECORD_TYPE cuMemcpyDtoHAsync_v2_params
    S();
    F(dstHost);
    F(srcDevice);
    F(ByteCount);
    F(hStream);
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cuMemcpy_params
#define RECORD_TYPE cuMemcpy_params
    S();
    F(dst);
    F(src);
    F(ByteCount);
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cuMemcpyAsync_params
#define RECORD_TYPE cuMemcpyAsync_params
    S();
    F(dst);
    F(src);
    F(ByteCount);
    F(hStream);
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cuMemAlloc_v2_params
#define RECORD_TYPE cuMemAlloc_v2_params
    S();
    F(dptr);
    F(bytesize);
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cuMemFree_v2_params
#define RECORD_TYPE cuMemFree_v2_params
    S();
    F(dptr);
#undef RECORD_NAME
#undef RECORD_TYPE
#define RECORD_NAME cuStreamSynchronize_params
#define RECORD_TYPE cuStreamSynchronize_params
    S();
    F(hStream);
    return 0;
}
