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

#define S(name, type) printf(#name " size %zu\n", sizeof(type))
#define F(name, type, field)                                                                       \
    printf(#name "." #field " %zu %zu\n", offsetof(type, field), sizeof(((type *)0)->field))

int main(void)
{
    S(Kernel, CUpti_ActivityKernel10);
    F(Kernel, CUpti_ActivityKernel10, kind);
    F(Kernel, CUpti_ActivityKernel10, cacheConfig);
    F(Kernel, CUpti_ActivityKernel10, sharedMemoryConfig);
    F(Kernel, CUpti_ActivityKernel10, registersPerThread);
    F(Kernel, CUpti_ActivityKernel10, partitionedGlobalCacheRequested);
    F(Kernel, CUpti_ActivityKernel10, partitionedGlobalCacheExecuted);
    F(Kernel, CUpti_ActivityKernel10, start);
    F(Kernel, CUpti_ActivityKernel10, end);
    F(Kernel, CUpti_ActivityKernel10, completed);
    F(Kernel, CUpti_ActivityKernel10, deviceId);
    F(Kernel, CUpti_ActivityKernel10, contextId);
    F(Kernel, CUpti_ActivityKernel10, streamId);
    F(Kernel, CUpti_ActivityKernel10, gridX);
    F(Kernel, CUpti_ActivityKernel10, gridY);
    F(Kernel, CUpti_ActivityKernel10, gridZ);
    F(Kernel, CUpti_ActivityKernel10, blockX);
    F(Kernel, CUpti_ActivityKernel10, blockY);
    F(Kernel, CUpti_ActivityKernel10, blockZ);
    F(Kernel, CUpti_ActivityKernel10, staticSharedMemory);
    F(Kernel, CUpti_ActivityKernel10, dynamicSharedMemory);
    F(Kernel, CUpti_ActivityKernel10, localMemoryPerThread);
    F(Kernel, CUpti_ActivityKernel10, localMemoryTotal);
    F(Kernel, CUpti_ActivityKernel10, correlationId);
    F(Kernel, CUpti_ActivityKernel10, gridId);
    F(Kernel, CUpti_ActivityKernel10, name);
    F(Kernel, CUpti_ActivityKernel10, reserved0);
    F(Kernel, CUpti_ActivityKernel10, queued);
    F(Kernel, CUpti_ActivityKernel10, submitted);
    F(Kernel, CUpti_ActivityKernel10, launchType);
    F(Kernel, CUpti_ActivityKernel10, isSharedMemoryCarveoutRequested);
    F(Kernel, CUpti_ActivityKernel10, sharedMemoryCarveoutRequested);
    F(Kernel, CUpti_ActivityKernel10, padding);
    F(Kernel, CUpti_ActivityKernel10, sharedMemoryExecuted);
    F(Kernel, CUpti_ActivityKernel10, graphNodeId);
    F(Kernel, CUpti_ActivityKernel10, shmemLimitConfig);
    F(Kernel, CUpti_ActivityKernel10, graphId);
    F(Kernel, CUpti_ActivityKernel10, pAccessPolicyWindow);
    F(Kernel, CUpti_ActivityKernel10, channelID);
    F(Kernel, CUpti_ActivityKernel10, channelType);
    F(Kernel, CUpti_ActivityKernel10, clusterX);
    F(Kernel, CUpti_ActivityKernel10, clusterY);
    F(Kernel, CUpti_ActivityKernel10, clusterZ);
    F(Kernel, CUpti_ActivityKernel10, clusterSchedulingPolicy);
    F(Kernel, CUpti_ActivityKernel10, localMemoryTotal_v2);
    F(Kernel, CUpti_ActivityKernel10, maxPotentialClusterSize);
    F(Kernel, CUpti_ActivityKernel10, maxActiveClusters);
    F(Kernel, CUpti_ActivityKernel10, isDeviceLaunched);
    F(Kernel, CUpti_ActivityKernel10, padding3);

    S(Memcpy, CUpti_ActivityMemcpy6);
    F(Memcpy, CUpti_ActivityMemcpy6, kind);
    F(Memcpy, CUpti_ActivityMemcpy6, copyKind);
    F(Memcpy, CUpti_ActivityMemcpy6, srcKind);
    F(Memcpy, CUpti_ActivityMemcpy6, dstKind);
    F(Memcpy, CUpti_ActivityMemcpy6, flags);
    F(Memcpy, CUpti_ActivityMemcpy6, bytes);
    F(Memcpy, CUpti_ActivityMemcpy6, start);
    F(Memcpy, CUpti_ActivityMemcpy6, end);
    F(Memcpy, CUpti_ActivityMemcpy6, deviceId);
    F(Memcpy, CUpti_ActivityMemcpy6, contextId);
    F(Memcpy, CUpti_ActivityMemcpy6, streamId);
    F(Memcpy, CUpti_ActivityMemcpy6, correlationId);
    F(Memcpy, CUpti_ActivityMemcpy6, runtimeCorrelationId);
    F(Memcpy, CUpti_ActivityMemcpy6, pad);
    F(Memcpy, CUpti_ActivityMemcpy6, reserved0);
    F(Memcpy, CUpti_ActivityMemcpy6, graphNodeId);
    F(Memcpy, CUpti_ActivityMemcpy6, graphId);
    F(Memcpy, CUpti_ActivityMemcpy6, channelID);
    F(Memcpy, CUpti_ActivityMemcpy6, channelType);
    F(Memcpy, CUpti_ActivityMemcpy6, isDeviceLaunched);
    F(Memcpy, CUpti_ActivityMemcpy6, pad2);
    F(Memcpy, CUpti_ActivityMemcpy6, copyCount);

    S(PeerCopy, CUpti_ActivityMemcpyPtoP4);
    F(PeerCopy, CUpti_ActivityMemcpyPtoP4, kind);
    F(PeerCopy, CUpti_ActivityMemcpyPtoP4, copyKind);
    F(PeerCopy, CUpti_ActivityMemcpyPtoP4, srcKind);
    F(PeerCopy, CUpti_ActivityMemcpyPtoP4, dstKind);
    F(PeerCopy, CUpti_ActivityMemcpyPtoP4, flags);
    F(PeerCopy, CUpti_ActivityMemcpyPtoP4, bytes);
    F(PeerCopy, CUpti_ActivityMemcpyPtoP4, start);
    F(PeerCopy, CUpti_ActivityMemcpyPtoP4, end);
    F(PeerCopy, CUpti_ActivityMemcpyPtoP4, deviceId);
    F(PeerCopy, CUpti_ActivityMemcpyPtoP4, contextId);
    F(PeerCopy, CUpti_ActivityMemcpyPtoP4, streamId);
    F(PeerCopy, CUpti_ActivityMemcpyPtoP4, srcDeviceId);
    F(PeerCopy, CUpti_ActivityMemcpyPtoP4, srcContextId);
    F(PeerCopy, CUpti_ActivityMemcpyPtoP4, dstDeviceId);
    F(PeerCopy, CUpti_ActivityMemcpyPtoP4, dstContextId);
    F(PeerCopy, CUpti_ActivityMemcpyPtoP4, correlationId);
    F(PeerCopy, CUpti_ActivityMemcpyPtoP4, reserved0);
    F(PeerCopy, CUpti_ActivityMemcpyPtoP4, graphNodeId);
    F(PeerCopy, CUpti_ActivityMemcpyPtoP4, graphId);
    F(PeerCopy, CUpti_ActivityMemcpyPtoP4, channelID);
    F(PeerCopy, CUpti_ActivityMemcpyPtoP4, channelType);

    S(Memset, CUpti_ActivityMemset4);
    F(Memset, CUpti_ActivityMemset4, kind);
    F(Memset, CUpti_ActivityMemset4, value);
    F(Memset, CUpti_ActivityMemset4, bytes);
    F(Memset, CUpti_ActivityMemset4, start);
    F(Memset, CUpti_ActivityMemset4, end);
    F(Memset, CUpti_ActivityMemset4, deviceId);
    F(Memset, CUpti_ActivityMemset4, contextId);
    F(Memset, CUpti_ActivityMemset4, streamId);
    F(Memset, CUpti_ActivityMemset4, correlationId);
    F(Memset, CUpti_ActivityMemset4, flags);
    F(Memset, CUpti_ActivityMemset4, memoryKind);
    F(Memset, CUpti_ActivityMemset4, pad);
    F(Memset, CUpti_ActivityMemset4, reserved0);
    F(Memset, CUpti_ActivityMemset4, graphNodeId);
    F(Memset, CUpti_ActivityMemset4, graphId);
    F(Memset, CUpti_ActivityMemset4, channelID);
    F(Memset, CUpti_ActivityMemset4, channelType);
    F(Memset, CUpti_ActivityMemset4, isDeviceLaunched);
    F(Memset, CUpti_ActivityMemset4, pad2);

    S(Synchronization, CUpti_ActivitySynchronization2);
    F(Synchronization, CUpti_ActivitySynchronization2, kind);
    F(Synchronization, CUpti_ActivitySynchronization2, type);
    F(Synchronization, CUpti_ActivitySynchronization2, start);
    F(Synchronization, CUpti_ActivitySynchronization2, end);
    F(Synchronization, CUpti_ActivitySynchronization2, correlationId);
    F(Synchronization, CUpti_ActivitySynchronization2, contextId);
    F(Synchronization, CUpti_ActivitySynchronization2, streamId);
    F(Synchronization, CUpti_ActivitySynchronization2, cudaEventId);
    F(Synchronization, CUpti_ActivitySynchronization2, cudaEventSyncId);
    F(Synchronization, CUpti_ActivitySynchronization2, returnValue);
    F(Synchronization, CUpti_ActivitySynchronization2, pad);

    S(Memory, CUpti_ActivityMemory4);
    F(Memory, CUpti_ActivityMemory4, kind);
    F(Memory, CUpti_ActivityMemory4, memoryOperationType);
    F(Memory, CUpti_ActivityMemory4, memoryKind);
    F(Memory, CUpti_ActivityMemory4, correlationId);
    F(Memory, CUpti_ActivityMemory4, address);
    F(Memory, CUpti_ActivityMemory4, bytes);
    F(Memory, CUpti_ActivityMemory4, timestamp);
    F(Memory, CUpti_ActivityMemory4, PC);
    F(Memory, CUpti_ActivityMemory4, processId);
    F(Memory, CUpti_ActivityMemory4, deviceId);
    F(Memory, CUpti_ActivityMemory4, contextId);
    F(Memory, CUpti_ActivityMemory4, streamId);
    F(Memory, CUpti_ActivityMemory4, name);
    F(Memory, CUpti_ActivityMemory4, isAsync);
    F(Memory, CUpti_ActivityMemory4, pad1);
    F(Memory, CUpti_ActivityMemory4, memoryPoolConfig);
    F(Memory, CUpti_ActivityMemory4, source);

    S(Device, CUpti_ActivityDevice5);
    F(Device, CUpti_ActivityDevice5, kind);
    F(Device, CUpti_ActivityDevice5, flags);
    F(Device, CUpti_ActivityDevice5, globalMemoryBandwidth);
    F(Device, CUpti_ActivityDevice5, globalMemorySize);
    F(Device, CUpti_ActivityDevice5, constantMemorySize);
    F(Device, CUpti_ActivityDevice5, l2CacheSize);
    F(Device, CUpti_ActivityDevice5, numThreadsPerWarp);
    F(Device, CUpti_ActivityDevice5, coreClockRate);
    F(Device, CUpti_ActivityDevice5, numMemcpyEngines);
    F(Device, CUpti_ActivityDevice5, numMultiprocessors);
    F(Device, CUpti_ActivityDevice5, maxIPC);
    F(Device, CUpti_ActivityDevice5, maxWarpsPerMultiprocessor);
    F(Device, CUpti_ActivityDevice5, maxBlocksPerMultiprocessor);
    F(Device, CUpti_ActivityDevice5, maxSharedMemoryPerMultiprocessor);
    F(Device, CUpti_ActivityDevice5, maxRegistersPerMultiprocessor);
    F(Device, CUpti_ActivityDevice5, maxRegistersPerBlock);
    F(Device, CUpti_ActivityDevice5, maxSharedMemoryPerBlock);
    F(Device, CUpti_ActivityDevice5, maxThreadsPerBlock);
    F(Device, CUpti_ActivityDevice5, maxBlockDimX);
    F(Device, CUpti_ActivityDevice5, maxBlockDimY);
    F(Device, CUpti_ActivityDevice5, maxBlockDimZ);
    F(Device, CUpti_ActivityDevice5, maxGridDimX);
    F(Device, CUpti_ActivityDevice5, maxGridDimY);
    F(Device, CUpti_ActivityDevice5, maxGridDimZ);
    F(Device, CUpti_ActivityDevice5, computeCapabilityMajor);
    F(Device, CUpti_ActivityDevice5, computeCapabilityMinor);
    F(Device, CUpti_ActivityDevice5, id);
    F(Device, CUpti_ActivityDevice5, eccEnabled);
    F(Device, CUpti_ActivityDevice5, uuid);
    F(Device, CUpti_ActivityDevice5, name);
    F(Device, CUpti_ActivityDevice5, isCudaVisible);
    F(Device, CUpti_ActivityDevice5, isMigEnabled);
    F(Device, CUpti_ActivityDevice5, reserved);
    F(Device, CUpti_ActivityDevice5, gpuInstanceId);
    F(Device, CUpti_ActivityDevice5, computeInstanceId);
    F(Device, CUpti_ActivityDevice5, migUuid);
    F(Device, CUpti_ActivityDevice5, isNumaNode);
    F(Device, CUpti_ActivityDevice5, numaId);

    S(Context, CUpti_ActivityContext3);
    F(Context, CUpti_ActivityContext3, kind);
    F(Context, CUpti_ActivityContext3, contextId);
    F(Context, CUpti_ActivityContext3, deviceId);
    F(Context, CUpti_ActivityContext3, computeApiKind);
    F(Context, CUpti_ActivityContext3, nullStreamId);
    F(Context, CUpti_ActivityContext3, parentContextId);
    F(Context, CUpti_ActivityContext3, isGreenContext);
    F(Context, CUpti_ActivityContext3, padding);
    F(Context, CUpti_ActivityContext3, numMultiprocessors);
    F(Context, CUpti_ActivityContext3, cigMode);
    F(Context, CUpti_ActivityContext3, padding2);

    S(UnifiedMemoryCounter, CUpti_ActivityUnifiedMemoryCounter3);
    F(UnifiedMemoryCounter, CUpti_ActivityUnifiedMemoryCounter3, kind);
    F(UnifiedMemoryCounter, CUpti_ActivityUnifiedMemoryCounter3, counterKind);
    F(UnifiedMemoryCounter, CUpti_ActivityUnifiedMemoryCounter3, value);
    F(UnifiedMemoryCounter, CUpti_ActivityUnifiedMemoryCounter3, start);
    F(UnifiedMemoryCounter, CUpti_ActivityUnifiedMemoryCounter3, end);
    F(UnifiedMemoryCounter, CUpti_ActivityUnifiedMemoryCounter3, address);
    F(UnifiedMemoryCounter, CUpti_ActivityUnifiedMemoryCounter3, srcId);
    F(UnifiedMemoryCounter, CUpti_ActivityUnifiedMemoryCounter3, dstId);
    F(UnifiedMemoryCounter, CUpti_ActivityUnifiedMemoryCounter3, streamId);
    F(UnifiedMemoryCounter, CUpti_ActivityUnifiedMemoryCounter3, processId);
    F(UnifiedMemoryCounter, CUpti_ActivityUnifiedMemoryCounter3, flags);
    F(UnifiedMemoryCounter, CUpti_ActivityUnifiedMemoryCounter3, pad);
    F(UnifiedMemoryCounter, CUpti_ActivityUnifiedMemoryCounter3, processors);
    return 0;
}
