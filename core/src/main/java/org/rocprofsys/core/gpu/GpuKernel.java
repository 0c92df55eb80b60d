package org.rocprofsys.core.gpu;

/**
 * One kernel execution on a device (with what the backend adds: a ROCm dispatch's queue and ids
 * are annotations of its placement).
 *
 * @param stream              the stream (CUDA) or queue (ROCm) it ran on
 * @param name                the demangled name
 * @param mangledName         the name as the runtime gave it
 * @param grid                grid size in blocks
 * @param block               block (workgroup) size in threads
 * @param staticSharedBytes   shared memory declared in the kernel
 * @param dynamicSharedBytes  shared memory given at launch
 * @param registersPerThread  registers per thread (0 when unknown)
 * @param domain              the vendor's kernel-dispatch domain
 * @param placement           its track, category and annotations in the trace
 */
public record GpuKernel(
        int pid,
        int device,
        long stream,
        long correlationId,
        long beginNs,
        long endNs,
        String name,
        String mangledName,
        Dim3 grid,
        Dim3 block,
        int staticSharedBytes,
        int dynamicSharedBytes,
        int registersPerThread,
        GpuDomain domain,
        DevicePlacement placement)
        implements GpuInterval {}
