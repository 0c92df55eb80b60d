package org.rocprofsys.cuda.decode;

import static java.lang.foreign.ValueLayout.ADDRESS_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.StructLayout;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CUPTI activity records the decoder reads, as laid out by the CUDA 13 CUPTI headers
 * ({@code cupti_activity.h}, x86-64): {@code CUpti_ActivityKernel10}, {@code Memcpy6},
 * {@code MemcpyPtoP4}, {@code Memset4}, {@code Synchronization2}, {@code Memory4},
 * {@code Device5}, {@code Context3}. CUPTI declares them packed (no implicit padding; its own
 * padding fields are listed here), so every field here is unaligned and the layouts are the
 * fields in order. CuptiLayoutsTest holds each size and offset to a C program compiled with the
 * real headers. CUPTI may hand a longer record of a later version; the fields read here keep their
 * offsets within a record version, and the decoder checks that a record is at least this long.
 */
public final class CuptiLayouts {
    private CuptiLayouts() {}

    private static final MemoryLayout U8 = JAVA_BYTE;
    private static final MemoryLayout U16 = JAVA_SHORT_UNALIGNED;
    private static final MemoryLayout U32 = JAVA_INT_UNALIGNED;
    private static final MemoryLayout U64 = JAVA_LONG_UNALIGNED;
    private static final MemoryLayout PTR = ADDRESS_UNALIGNED;

    private static MemoryLayout bytes(long n) {
        return MemoryLayout.sequenceLayout(n, JAVA_BYTE);
    }

    private static StructLayout struct(String structName, Object... namesAndLayouts) {
        MemoryLayout[] fields = new MemoryLayout[namesAndLayouts.length / 2];
        for (int i = 0; i < fields.length; i++) {
            MemoryLayout field = (MemoryLayout) namesAndLayouts[2 * i + 1];
            String name = (String) namesAndLayouts[2 * i];
            fields[i] = name.isEmpty() ? field : field.withName(name); // "": the struct's trailing alignment
        }
        return MemoryLayout.structLayout(fields).withName(structName);
    }

    /** CUpti_ActivityKernel10 (CONCURRENT_KERNEL and KERNEL records). */
    public static final StructLayout KERNEL = struct(
            "Kernel",
            "kind",
            U32,
            "cacheConfig",
            U8,
            "sharedMemoryConfig",
            U8,
            "registersPerThread",
            U16,
            "partitionedGlobalCacheRequested",
            U32,
            "partitionedGlobalCacheExecuted",
            U32,
            "start",
            U64,
            "end",
            U64,
            "completed",
            U64,
            "deviceId",
            U32,
            "contextId",
            U32,
            "streamId",
            U32,
            "gridX",
            U32,
            "gridY",
            U32,
            "gridZ",
            U32,
            "blockX",
            U32,
            "blockY",
            U32,
            "blockZ",
            U32,
            "staticSharedMemory",
            U32,
            "dynamicSharedMemory",
            U32,
            "localMemoryPerThread",
            U32,
            "localMemoryTotal",
            U32,
            "correlationId",
            U32,
            "gridId",
            U64,
            "name",
            PTR,
            "reserved0",
            PTR,
            "queued",
            U64,
            "submitted",
            U64,
            "launchType",
            U8,
            "isSharedMemoryCarveoutRequested",
            U8,
            "sharedMemoryCarveoutRequested",
            U8,
            "padding",
            U8,
            "sharedMemoryExecuted",
            U32,
            "graphNodeId",
            U64,
            "shmemLimitConfig",
            U32,
            "graphId",
            U32,
            "pAccessPolicyWindow",
            PTR,
            "channelID",
            U32,
            "channelType",
            U32,
            "clusterX",
            U32,
            "clusterY",
            U32,
            "clusterZ",
            U32,
            "clusterSchedulingPolicy",
            U32,
            "localMemoryTotal_v2",
            U64,
            "maxPotentialClusterSize",
            U32,
            "maxActiveClusters",
            U32,
            "isDeviceLaunched",
            U8,
            "padding3",
            bytes(7));

    /** CUpti_ActivityMemcpy6 (MEMCPY records). */
    public static final StructLayout MEMCPY = struct(
            "Memcpy",
            "kind",
            U32,
            "copyKind",
            U8,
            "srcKind",
            U8,
            "dstKind",
            U8,
            "flags",
            U8,
            "bytes",
            U64,
            "start",
            U64,
            "end",
            U64,
            "deviceId",
            U32,
            "contextId",
            U32,
            "streamId",
            U32,
            "correlationId",
            U32,
            "runtimeCorrelationId",
            U32,
            "pad",
            U32,
            "reserved0",
            PTR,
            "graphNodeId",
            U64,
            "graphId",
            U32,
            "channelID",
            U32,
            "channelType",
            U32,
            "isDeviceLaunched",
            U8,
            "pad2",
            bytes(3),
            "copyCount",
            U64);

    /** CUpti_ActivityMemcpyPtoP4 (MEMCPY2 records: peer copies). */
    public static final StructLayout PEER_COPY = struct(
            "PeerCopy",
            "kind",
            U32,
            "copyKind",
            U8,
            "srcKind",
            U8,
            "dstKind",
            U8,
            "flags",
            U8,
            "bytes",
            U64,
            "start",
            U64,
            "end",
            U64,
            "deviceId",
            U32,
            "contextId",
            U32,
            "streamId",
            U32,
            "srcDeviceId",
            U32,
            "srcContextId",
            U32,
            "dstDeviceId",
            U32,
            "dstContextId",
            U32,
            "correlationId",
            U32,
            "reserved0",
            PTR,
            "graphNodeId",
            U64,
            "graphId",
            U32,
            "channelID",
            U32,
            "channelType",
            U32,
            "",
            MemoryLayout.paddingLayout(4));

    /** CUpti_ActivityMemset4 (MEMSET records). */
    public static final StructLayout MEMSET = struct(
            "Memset",
            "kind",
            U32,
            "value",
            U32,
            "bytes",
            U64,
            "start",
            U64,
            "end",
            U64,
            "deviceId",
            U32,
            "contextId",
            U32,
            "streamId",
            U32,
            "correlationId",
            U32,
            "flags",
            U16,
            "memoryKind",
            U16,
            "pad",
            U32,
            "reserved0",
            PTR,
            "graphNodeId",
            U64,
            "graphId",
            U32,
            "channelID",
            U32,
            "channelType",
            U32,
            "isDeviceLaunched",
            U8,
            "pad2",
            bytes(3));

    /** CUpti_ActivitySynchronization2 (SYNCHRONIZATION records). */
    public static final StructLayout SYNCHRONIZATION = struct(
            "Synchronization",
            "kind",
            U32,
            "type",
            U32,
            "start",
            U64,
            "end",
            U64,
            "correlationId",
            U32,
            "contextId",
            U32,
            "streamId",
            U32,
            "cudaEventId",
            U32,
            "cudaEventSyncId",
            U64,
            "returnValue",
            U32,
            "pad",
            U32);

    /** CUpti_ActivityMemory4 (MEMORY2 records: allocations and releases). */
    public static final StructLayout MEMORY = struct(
            "Memory",
            "kind",
            U32,
            "memoryOperationType",
            U32,
            "memoryKind",
            U32,
            "correlationId",
            U32,
            "address",
            U64,
            "bytes",
            U64,
            "timestamp",
            U64,
            "PC",
            U64,
            "processId",
            U32,
            "deviceId",
            U32,
            "contextId",
            U32,
            "streamId",
            U32,
            "name",
            PTR,
            "isAsync",
            U32,
            "pad1",
            U32,
            "memoryPoolConfig",
            bytes(40),
            "source",
            PTR);

    /** CUpti_ActivityDevice5 (DEVICE records). */
    public static final StructLayout DEVICE = struct(
            "Device",
            "kind",
            U32,
            "flags",
            U32,
            "globalMemoryBandwidth",
            U64,
            "globalMemorySize",
            U64,
            "constantMemorySize",
            U32,
            "l2CacheSize",
            U32,
            "numThreadsPerWarp",
            U32,
            "coreClockRate",
            U32,
            "numMemcpyEngines",
            U32,
            "numMultiprocessors",
            U32,
            "maxIPC",
            U32,
            "maxWarpsPerMultiprocessor",
            U32,
            "maxBlocksPerMultiprocessor",
            U32,
            "maxSharedMemoryPerMultiprocessor",
            U32,
            "maxRegistersPerMultiprocessor",
            U32,
            "maxRegistersPerBlock",
            U32,
            "maxSharedMemoryPerBlock",
            U32,
            "maxThreadsPerBlock",
            U32,
            "maxBlockDimX",
            U32,
            "maxBlockDimY",
            U32,
            "maxBlockDimZ",
            U32,
            "maxGridDimX",
            U32,
            "maxGridDimY",
            U32,
            "maxGridDimZ",
            U32,
            "computeCapabilityMajor",
            U32,
            "computeCapabilityMinor",
            U32,
            "id",
            U32,
            "eccEnabled",
            U32,
            "uuid",
            bytes(16),
            "name",
            PTR,
            "isCudaVisible",
            U8,
            "isMigEnabled",
            U8,
            "reserved",
            bytes(6),
            "gpuInstanceId",
            U32,
            "computeInstanceId",
            U32,
            "migUuid",
            bytes(16),
            "isNumaNode",
            U32,
            "numaId",
            U32);

    /** CUpti_ActivityContext3 (CONTEXT records). */
    public static final StructLayout CONTEXT = struct(
            "Context",
            "kind",
            U32,
            "contextId",
            U32,
            "deviceId",
            U32,
            "computeApiKind",
            U16,
            "nullStreamId",
            U16,
            "parentContextId",
            U32,
            "isGreenContext",
            U8,
            "padding",
            U8,
            "numMultiprocessors",
            U16,
            "cigMode",
            U32,
            "padding2",
            U32);

    /** Every layout by its name (as the C layout program prints it). */
    public static final Map<String, StructLayout> ALL;

    static {
        Map<String, StructLayout> m = new LinkedHashMap<>();
        for (StructLayout l :
                new StructLayout[] {KERNEL, MEMCPY, PEER_COPY, MEMSET, SYNCHRONIZATION, MEMORY, DEVICE, CONTEXT}) {
            m.put(l.name().orElseThrow(), l);
        }
        ALL = Map.copyOf(m);
    }

    /** Byte offset of {@code field} in {@code layout}. */
    public static long offset(StructLayout layout, String field) {
        return layout.byteOffset(PathElement.groupElement(field));
    }
}
