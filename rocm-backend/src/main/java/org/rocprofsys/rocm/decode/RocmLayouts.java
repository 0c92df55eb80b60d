package org.rocprofsys.rocm.decode;

/**
 * The rocprofiler-sdk structs the collector reads from the ROCm records, as SDK 1.0.0 lays them out
 * (ROCm/rocm-systems projects/rocprofiler-sdk at 1b1610fc; the same numbers the tool's
 * {@code rsys_rocm_sdk.h} uses). Only the fields read are named. {@code RocmLayoutsTest} checks
 * every size and offset against the numbers the SDK's own headers gave.
 */
public final class RocmLayouts {
    private RocmLayouts() {}

    /** {@code rocprofiler_agent_v0_t}. */
    public static final class Agent {
        private Agent() {}

        public static final int SIZE = 312;
        public static final int ID = 8;
        public static final int TYPE = 16;
        public static final int CU_COUNT = 72;
        public static final int GFX_TARGET_VERSION = 100;
        public static final int LOCAL_MEM_SIZE = 176;
        public static final int NAME = 248;
        public static final int PRODUCT_NAME = 264;
        public static final int NODE_ID = 280;
        public static final int LOGICAL_NODE_ID = 284;
        public static final int LOGICAL_NODE_TYPE_ID = 288;
        public static final int UUID = 296;
        public static final int UUID_SIZE = 16;
        /** {@code ROCPROFILER_AGENT_TYPE_GPU}. */
        public static final int TYPE_GPU = 2;
    }

    /** {@code rocprofiler_buffer_tracing_kernel_dispatch_record_t} (its {@code dispatch_info} inline). */
    public static final class KernelDispatch {
        private KernelDispatch() {}

        public static final int SIZE = 184;
        public static final int KIND = 8;
        public static final int OPERATION = 12;
        public static final int CORRELATION_INTERNAL = 16;
        public static final int THREAD_ID = 32;
        public static final int START = 40;
        public static final int END = 48;
        public static final int DISPATCH_INFO = 56;
        public static final int AGENT_ID = 64;
        public static final int QUEUE_ID = 72;
        public static final int KERNEL_ID = 80;
        public static final int DISPATCH_ID = 88;
        public static final int PRIVATE_SEGMENT_SIZE = 96;
        public static final int GROUP_SEGMENT_SIZE = 100;
        /** {@code rocprofiler_dim3_t}: three u32. */
        public static final int WORKGROUP_SIZE = 104;

        public static final int GRID_SIZE = 116;
    }

    /** {@code rocprofiler_buffer_tracing_memory_copy_record_t}. */
    public static final class MemoryCopy {
        private MemoryCopy() {}

        public static final int SIZE = 96;
        public static final int KIND = 8;
        public static final int OPERATION = 12;
        public static final int CORRELATION_INTERNAL = 16;
        public static final int THREAD_ID = 32;
        public static final int START = 40;
        public static final int END = 48;
        public static final int DST_AGENT_ID = 56;
        public static final int SRC_AGENT_ID = 64;
        public static final int BYTES = 72;
    }

    /** {@code rocprofiler_buffer_tracing_scratch_memory_record_t}. */
    public static final class ScratchMemory {
        private ScratchMemory() {}

        public static final int SIZE = 96;
        public static final int KIND = 8;
        public static final int OPERATION = 12;
        public static final int CORRELATION_INTERNAL = 16;
        public static final int AGENT_ID = 40;
        public static final int QUEUE_ID = 48;
        public static final int THREAD_ID = 56;
        public static final int START = 64;
        public static final int END = 72;
        public static final int FLAGS = 80;
        public static final int ALLOCATION_SIZE = 88;
    }

    /** {@code rocprofiler_buffer_tracing_kfd_page_migrate_record_t}: one migration, KFD's start and end paired. */
    public static final class PageMigrate {
        private PageMigrate() {}

        public static final int SIZE = 96;
        public static final int START = 16;
        public static final int END = 24;
        public static final int START_ADDRESS = 40;
        /** One past the last byte (the SDK adds KFD's page count to the start). */
        public static final int END_ADDRESS = 48;

        public static final int SRC_AGENT = 56;
        public static final int DST_AGENT = 64;
        public static final int PREFETCH_AGENT = 72;
        public static final int ERROR_CODE = 88;
    }

    /** {@code rocprofiler_buffer_tracing_kfd_page_fault_record_t}. */
    public static final class PageFault {
        private PageFault() {}

        public static final int SIZE = 56;
        public static final int START = 16;
        public static final int END = 24;
        public static final int AGENT_ID = 40;
        public static final int ADDRESS = 48;
    }

    /** {@code rocprofiler_dispatch_counting_service_data_t}, its {@code dispatch_info} inline. */
    public static final class DispatchCounting {
        private DispatchCounting() {}

        public static final int SIZE = 168;
        public static final int CORRELATION_INTERNAL = 8;
        public static final int START = 24;
        public static final int END = 32;
        public static final int DISPATCH_INFO = 40;
        public static final int AGENT_ID = 48;
        public static final int QUEUE_ID = 56;
        public static final int KERNEL_ID = 64;
        public static final int DISPATCH_ID = 72;
    }

    /** {@code rocprofiler_callback_tracing_kind_t} values of the API domains traced. */
    public static final class CallbackKind {
        private CallbackKind() {}

        public static final int HSA_CORE_API = 1;
        public static final int HSA_AMD_EXT_API = 2;
        public static final int HSA_IMAGE_EXT_API = 3;
        public static final int HSA_FINALIZE_EXT_API = 4;
        public static final int HIP_RUNTIME_API = 5;
        public static final int HIP_COMPILER_API = 6;
        public static final int MARKER_CORE_API = 7;
        public static final int RCCL_API = 14;
        public static final int ROCDECODE_API = 18;
        public static final int ROCJPEG_API = 19;
    }

    /** {@code rocprofiler_buffer_tracing_kind_t} values of the buffer records traced. */
    public static final class BufferKind {
        private BufferKind() {}

        public static final int MEMORY_COPY = 10;
        public static final int KERNEL_DISPATCH = 11;
        public static final int SCRATCH_MEMORY = 12;
        public static final int KFD_PAGE_MIGRATE = 29;
        public static final int KFD_PAGE_FAULT = 30;
        /**
         * Not an SDK kind: the tool's record of one dispatch's counter values (the SDK's
         * dispatch counting data, then one double per counter; docs/wire-protocol.md).
         */
        public static final int COUNTERS = 0x100;
    }

    /** {@code rocprofiler_memory_copy_operation_t}: 1 host-host, 2 host-device, 3 device-host, 4 device-device. */
    public static final int MEMORY_COPY_HOST_TO_HOST = 1;

    public static final int MEMORY_COPY_HOST_TO_DEVICE = 2;
    public static final int MEMORY_COPY_DEVICE_TO_HOST = 3;
    public static final int MEMORY_COPY_DEVICE_TO_DEVICE = 4;
}
