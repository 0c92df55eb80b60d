package org.rocprofsys.rocm.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.NativeCompiler;
import org.rocprofsys.testkit.ProcessResult;

/**
 * The SDK layouts the ROCm backend declares itself, in C ({@code rsys_rocm_sdk.h}, used by the tool
 * and the replay SDK) and in Java ({@link RocmLayouts}, used by the decoder), against the numbers
 * rocprofiler-sdk 1.0.0's own headers gave (src/test/c/sdk_layouts.c, built once against them; its
 * output is the resource {@code sdk-1.0.0-layouts.txt}).
 */
class RocmLayoutsTest {
    @TempDir
    Path dir;

    private static Map<String, Long> sdk() throws IOException {
        Map<String, Long> m = new LinkedHashMap<>();
        try (InputStream in = RocmLayoutsTest.class.getResourceAsStream("/org/rocprofsys/rocm/sdk-1.0.0-layouts.txt")) {
            assertNotNull(in);
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.trim().split(" ");
                m.put(f[0] + " " + f[1], Long.parseLong(f[2]));
            }
        }
        return m;
    }

    /** Every number the tool's header declares is the SDK's (the header also checks some at compile time). */
    @Test
    void toolHeaderMatchesTheSdkHeaders() throws Exception {
        Path root = Path.of(System.getProperty("user.dir")).resolve("..").normalize();
        Path exe = dir.resolve("tool_layouts");
        NativeCompiler.c()
                .compile(
                        exe,
                        List.of(
                                "-std=c11",
                                "-Wall",
                                "-Werror",
                                "-I" + root.resolve("rocm-backend/src/main/c"),
                                "-o",
                                exe.toString(),
                                root.resolve("rocm-backend/src/test/c/tool_layouts.c")
                                        .toString()));
        ProcessResult r = Command.of(List.of(exe.toString())).run();
        assertEquals(0, r.exitCode(), r.all());
        Map<String, Long> sdk = sdk();
        int checked = 0;
        for (String line : r.stdout().split("\n")) {
            String[] f = line.trim().split(" ");
            String key = f[0] + " " + f[1];
            assertTrue(sdk.containsKey(key), "the SDK output has no " + key);
            assertEquals((long) sdk.get(key), Long.parseLong(f[2]), key);
            checked++;
        }
        assertEquals(142, checked, "entries the tool's header declares");
    }

    private static void check(Map<String, Long> sdk, String struct, String field, int javaValue) {
        String key = "off " + struct + "." + field;
        assertTrue(sdk.containsKey(key), key);
        assertEquals((long) sdk.get(key), javaValue, key);
    }

    /** The SDK's value of enumerator {@code name} is {@code javaValue}. */
    private static void value(Map<String, Long> sdk, String name, long javaValue) {
        assertEquals((long) sdk.get("enum " + name), javaValue, name);
    }

    private static void size(Map<String, Long> sdk, String struct, int javaValue) {
        assertEquals((long) sdk.get("size " + struct), javaValue, "size of " + struct);
    }

    @Test
    void javaLayoutsMatchTheSdkHeaders() throws IOException {
        Map<String, Long> sdk = sdk();
        String a = "rocprofiler_agent_v0_t";
        size(sdk, a, RocmLayouts.Agent.SIZE);
        check(sdk, a, "id", RocmLayouts.Agent.ID);
        check(sdk, a, "type", RocmLayouts.Agent.TYPE);
        check(sdk, a, "cu_count", RocmLayouts.Agent.CU_COUNT);
        check(sdk, a, "gfx_target_version", RocmLayouts.Agent.GFX_TARGET_VERSION);
        check(sdk, a, "local_mem_size", RocmLayouts.Agent.LOCAL_MEM_SIZE);
        check(sdk, a, "name", RocmLayouts.Agent.NAME);
        check(sdk, a, "product_name", RocmLayouts.Agent.PRODUCT_NAME);
        check(sdk, a, "node_id", RocmLayouts.Agent.NODE_ID);
        check(sdk, a, "logical_node_id", RocmLayouts.Agent.LOGICAL_NODE_ID);
        check(sdk, a, "logical_node_type_id", RocmLayouts.Agent.LOGICAL_NODE_TYPE_ID);
        check(sdk, a, "uuid", RocmLayouts.Agent.UUID);
        assertEquals((long) sdk.get("size rocprofiler_uuid_t"), RocmLayouts.Agent.UUID_SIZE);
        value(sdk, "ROCPROFILER_AGENT_TYPE_GPU", RocmLayouts.Agent.TYPE_GPU);

        String k = "rocprofiler_buffer_tracing_kernel_dispatch_record_t";
        size(sdk, k, RocmLayouts.KernelDispatch.SIZE);
        check(sdk, k, "kind", RocmLayouts.KernelDispatch.KIND);
        check(sdk, k, "operation", RocmLayouts.KernelDispatch.OPERATION);
        check(sdk, k, "correlation_id.internal", RocmLayouts.KernelDispatch.CORRELATION_INTERNAL);
        check(sdk, k, "thread_id", RocmLayouts.KernelDispatch.THREAD_ID);
        check(sdk, k, "start_timestamp", RocmLayouts.KernelDispatch.START);
        check(sdk, k, "end_timestamp", RocmLayouts.KernelDispatch.END);
        check(sdk, k, "dispatch_info", RocmLayouts.KernelDispatch.DISPATCH_INFO);
        check(sdk, k, "dispatch_info.agent_id", RocmLayouts.KernelDispatch.AGENT_ID);
        check(sdk, k, "dispatch_info.queue_id", RocmLayouts.KernelDispatch.QUEUE_ID);
        check(sdk, k, "dispatch_info.kernel_id", RocmLayouts.KernelDispatch.KERNEL_ID);
        check(sdk, k, "dispatch_info.dispatch_id", RocmLayouts.KernelDispatch.DISPATCH_ID);
        check(sdk, k, "dispatch_info.private_segment_size", RocmLayouts.KernelDispatch.PRIVATE_SEGMENT_SIZE);
        check(sdk, k, "dispatch_info.group_segment_size", RocmLayouts.KernelDispatch.GROUP_SEGMENT_SIZE);
        check(sdk, k, "dispatch_info.workgroup_size", RocmLayouts.KernelDispatch.WORKGROUP_SIZE);
        check(sdk, k, "dispatch_info.grid_size", RocmLayouts.KernelDispatch.GRID_SIZE);

        String m = "rocprofiler_buffer_tracing_memory_copy_record_t";
        size(sdk, m, RocmLayouts.MemoryCopy.SIZE);
        check(sdk, m, "kind", RocmLayouts.MemoryCopy.KIND);
        check(sdk, m, "operation", RocmLayouts.MemoryCopy.OPERATION);
        check(sdk, m, "correlation_id.internal", RocmLayouts.MemoryCopy.CORRELATION_INTERNAL);
        check(sdk, m, "thread_id", RocmLayouts.MemoryCopy.THREAD_ID);
        check(sdk, m, "start_timestamp", RocmLayouts.MemoryCopy.START);
        check(sdk, m, "end_timestamp", RocmLayouts.MemoryCopy.END);
        check(sdk, m, "dst_agent_id", RocmLayouts.MemoryCopy.DST_AGENT_ID);
        check(sdk, m, "src_agent_id", RocmLayouts.MemoryCopy.SRC_AGENT_ID);
        check(sdk, m, "bytes", RocmLayouts.MemoryCopy.BYTES);

        String s = "rocprofiler_buffer_tracing_scratch_memory_record_t";
        size(sdk, s, RocmLayouts.ScratchMemory.SIZE);
        check(sdk, s, "kind", RocmLayouts.ScratchMemory.KIND);
        check(sdk, s, "operation", RocmLayouts.ScratchMemory.OPERATION);
        check(sdk, s, "correlation_id.internal", RocmLayouts.ScratchMemory.CORRELATION_INTERNAL);
        check(sdk, s, "agent_id", RocmLayouts.ScratchMemory.AGENT_ID);
        check(sdk, s, "queue_id", RocmLayouts.ScratchMemory.QUEUE_ID);
        check(sdk, s, "thread_id", RocmLayouts.ScratchMemory.THREAD_ID);
        check(sdk, s, "start_timestamp", RocmLayouts.ScratchMemory.START);
        check(sdk, s, "end_timestamp", RocmLayouts.ScratchMemory.END);
        check(sdk, s, "flags", RocmLayouts.ScratchMemory.FLAGS);
        check(sdk, s, "allocation_size", RocmLayouts.ScratchMemory.ALLOCATION_SIZE);

        value(sdk, "ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API", RocmLayouts.CallbackKind.HSA_CORE_API);
        value(sdk, "ROCPROFILER_CALLBACK_TRACING_HSA_AMD_EXT_API", RocmLayouts.CallbackKind.HSA_AMD_EXT_API);
        value(sdk, "ROCPROFILER_CALLBACK_TRACING_HSA_IMAGE_EXT_API", RocmLayouts.CallbackKind.HSA_IMAGE_EXT_API);
        value(sdk, "ROCPROFILER_CALLBACK_TRACING_HSA_FINALIZE_EXT_API", RocmLayouts.CallbackKind.HSA_FINALIZE_EXT_API);
        value(sdk, "ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API", RocmLayouts.CallbackKind.HIP_RUNTIME_API);
        value(sdk, "ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API", RocmLayouts.CallbackKind.HIP_COMPILER_API);
        value(sdk, "ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API", RocmLayouts.CallbackKind.MARKER_CORE_API);
        value(sdk, "ROCPROFILER_CALLBACK_TRACING_RCCL_API", RocmLayouts.CallbackKind.RCCL_API);
        value(sdk, "ROCPROFILER_CALLBACK_TRACING_ROCDECODE_API", RocmLayouts.CallbackKind.ROCDECODE_API);
        value(sdk, "ROCPROFILER_CALLBACK_TRACING_ROCJPEG_API", RocmLayouts.CallbackKind.ROCJPEG_API);
        value(sdk, "ROCPROFILER_BUFFER_TRACING_MEMORY_COPY", RocmLayouts.BufferKind.MEMORY_COPY);
        value(sdk, "ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH", RocmLayouts.BufferKind.KERNEL_DISPATCH);
        value(sdk, "ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY", RocmLayouts.BufferKind.SCRATCH_MEMORY);
        value(sdk, "ROCPROFILER_MEMORY_COPY_HOST_TO_HOST", RocmLayouts.MEMORY_COPY_HOST_TO_HOST);
        value(sdk, "ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE", RocmLayouts.MEMORY_COPY_HOST_TO_DEVICE);
        value(sdk, "ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST", RocmLayouts.MEMORY_COPY_DEVICE_TO_HOST);
        value(sdk, "ROCPROFILER_MEMORY_COPY_DEVICE_TO_DEVICE", RocmLayouts.MEMORY_COPY_DEVICE_TO_DEVICE);
        String pm = "rocprofiler_buffer_tracing_kfd_page_migrate_record_t";
        size(sdk, pm, RocmLayouts.PageMigrate.SIZE);
        check(sdk, pm, "start_timestamp", RocmLayouts.PageMigrate.START);
        check(sdk, pm, "end_timestamp", RocmLayouts.PageMigrate.END);
        check(sdk, pm, "start_address", RocmLayouts.PageMigrate.START_ADDRESS);
        check(sdk, pm, "end_address", RocmLayouts.PageMigrate.END_ADDRESS);
        check(sdk, pm, "src_agent", RocmLayouts.PageMigrate.SRC_AGENT);
        check(sdk, pm, "dst_agent", RocmLayouts.PageMigrate.DST_AGENT);
        check(sdk, pm, "prefetch_agent", RocmLayouts.PageMigrate.PREFETCH_AGENT);
        check(sdk, pm, "error_code", RocmLayouts.PageMigrate.ERROR_CODE);
        String pf = "rocprofiler_buffer_tracing_kfd_page_fault_record_t";
        size(sdk, pf, RocmLayouts.PageFault.SIZE);
        check(sdk, pf, "start_timestamp", RocmLayouts.PageFault.START);
        check(sdk, pf, "end_timestamp", RocmLayouts.PageFault.END);
        check(sdk, pf, "agent_id", RocmLayouts.PageFault.AGENT_ID);
        check(sdk, pf, "address", RocmLayouts.PageFault.ADDRESS);
        String dc = "rocprofiler_dispatch_counting_service_data_t";
        size(sdk, dc, RocmLayouts.DispatchCounting.SIZE);
        check(sdk, dc, "correlation_id.internal", RocmLayouts.DispatchCounting.CORRELATION_INTERNAL);
        check(sdk, dc, "start_timestamp", RocmLayouts.DispatchCounting.START);
        check(sdk, dc, "end_timestamp", RocmLayouts.DispatchCounting.END);
        check(sdk, dc, "dispatch_info", RocmLayouts.DispatchCounting.DISPATCH_INFO);
        check(sdk, dc, "dispatch_info.agent_id", RocmLayouts.DispatchCounting.AGENT_ID);
        check(sdk, dc, "dispatch_info.queue_id", RocmLayouts.DispatchCounting.QUEUE_ID);
        check(sdk, dc, "dispatch_info.kernel_id", RocmLayouts.DispatchCounting.KERNEL_ID);
        check(sdk, dc, "dispatch_info.dispatch_id", RocmLayouts.DispatchCounting.DISPATCH_ID);
        value(sdk, "ROCPROFILER_BUFFER_TRACING_KFD_PAGE_MIGRATE", RocmLayouts.BufferKind.KFD_PAGE_MIGRATE);
        value(sdk, "ROCPROFILER_BUFFER_TRACING_KFD_PAGE_FAULT", RocmLayouts.BufferKind.KFD_PAGE_FAULT);
        assertTrue(
                RocmLayouts.BufferKind.COUNTERS > sdk.get("enum ROCPROFILER_BUFFER_TRACING_LAST"),
                "the tool's counter record kind is no SDK buffer kind");
        value(sdk, "ROCPROFILER_SCRATCH_MEMORY_ALLOC", 1L);
        value(sdk, "ROCPROFILER_SCRATCH_MEMORY_ASYNC_RECLAIM", 3L);
    }
}
