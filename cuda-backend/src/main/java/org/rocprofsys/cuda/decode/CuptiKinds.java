package org.rocprofsys.cuda.decode;

/**
 * The CUPTI enumeration values the decoder reads ({@code CUpti_ActivityKind},
 * {@code CUpti_CallbackDomain}, {@code CUpti_ActivityMemcpyKind}, ... of the CUDA 13 headers;
 * these values are stable across CUPTI versions).
 */
final class CuptiKinds {
    private CuptiKinds() {}

    // CUpti_ActivityKind
    static final int ACTIVITY_MEMCPY = 1;
    static final int ACTIVITY_MEMSET = 2;
    static final int ACTIVITY_KERNEL = 3;
    static final int ACTIVITY_DEVICE = 8;
    static final int ACTIVITY_CONTEXT = 9;
    static final int ACTIVITY_CONCURRENT_KERNEL = 10;
    static final int ACTIVITY_MEMCPY2 = 22;
    static final int ACTIVITY_SYNCHRONIZATION = 38;
    static final int ACTIVITY_MEMORY2 = 49;
    static final int ACTIVITY_UNIFIED_MEMORY_COUNTER = 25;

    // CUpti_ActivityUnifiedMemoryCounterKind
    static final int UM_BYTES_TRANSFER_HTOD = 1;
    static final int UM_BYTES_TRANSFER_DTOH = 2;
    static final int UM_CPU_PAGE_FAULT_COUNT = 3;
    static final int UM_GPU_PAGE_FAULT = 4;
    static final int UM_BYTES_TRANSFER_DTOD = 8;

    // CUpti_ActivityUnifiedMemoryMigrationCause (flags of the transfer kinds)
    static final int UM_CAUSE_COHERENCE = 2;
    static final int UM_CAUSE_PREFETCH = 3;
    static final int UM_CAUSE_EVICTION = 4;

    // CUpti_ActivityUnifiedMemoryAccessType (flags of GPU page faults)
    static final int UM_ACCESS_WRITE = 2;
    static final int UM_ACCESS_ATOMIC = 3;

    // CUpti_CallbackDomain
    static final int DOMAIN_DRIVER_API = 1;
    static final int DOMAIN_RUNTIME_API = 2;

    // CUpti_ActivityMemcpyKind
    static final int MEMCPY_HTOD = 1;
    static final int MEMCPY_DTOH = 2;
    static final int MEMCPY_HTOA = 3;
    static final int MEMCPY_ATOH = 4;
    static final int MEMCPY_ATOA = 5;
    static final int MEMCPY_ATOD = 6;
    static final int MEMCPY_DTOA = 7;
    static final int MEMCPY_DTOD = 8;
    static final int MEMCPY_HTOH = 9;
    static final int MEMCPY_PTOP = 10;

    // CUpti_ActivitySynchronizationType
    static final int SYNC_EVENT = 1;
    static final int SYNC_STREAM_WAIT_EVENT = 2;
    static final int SYNC_STREAM = 3;
    static final int SYNC_CONTEXT = 4;

    // CUpti_ActivityMemoryOperationType
    static final int MEMORY_ALLOCATION = 1;
    static final int MEMORY_RELEASE = 2;

    // CUpti_ActivityMemoryKind
    static final int MEMORY_PAGEABLE = 1;
    static final int MEMORY_PINNED = 2;
    static final int MEMORY_DEVICE = 3;
    static final int MEMORY_ARRAY = 4;
    static final int MEMORY_MANAGED = 5;
    static final int MEMORY_DEVICE_STATIC = 6;
    static final int MEMORY_MANAGED_STATIC = 7;

    /** CUPTI's "no value" for ids such as a synchronisation's stream (CUPTI_SYNCHRONIZATION_INVALID_VALUE). */
    static final int INVALID_ID = -1;

    // CUPTI_CBID_NVTX_*
    static final int NVTX_MARK_A = 1;
    static final int NVTX_MARK_W = 2;
    static final int NVTX_MARK_EX = 3;
    static final int NVTX_RANGE_START_A = 4;
    static final int NVTX_RANGE_START_W = 5;
    static final int NVTX_RANGE_START_EX = 6;
    static final int NVTX_RANGE_END = 7;
    static final int NVTX_RANGE_PUSH_A = 8;
    static final int NVTX_RANGE_PUSH_W = 9;
    static final int NVTX_RANGE_PUSH_EX = 10;
    static final int NVTX_RANGE_POP = 11;
    static final int NVTX_DOMAIN_MARK_EX = 30;
    static final int NVTX_DOMAIN_RANGE_START_EX = 31;
    static final int NVTX_DOMAIN_RANGE_END = 32;
    static final int NVTX_DOMAIN_RANGE_PUSH_EX = 33;
    static final int NVTX_DOMAIN_RANGE_POP = 34;
    static final int NVTX_DOMAIN_CREATE_A = 41;
}
