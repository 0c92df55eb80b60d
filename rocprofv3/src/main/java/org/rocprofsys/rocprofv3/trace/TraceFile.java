package org.rocprofsys.rocprofv3.trace;

import java.util.List;

/**
 * rocprofv3's per-event files, each with its columns in the seeds' order (seed 001, "Application
 * tracing"; the golden test Rocprofv3ColumnsTest holds them to it). {@link #trace} is the word of
 * ROCPROFSYS_ROCPROFV3_TRACES that asks for the file, {@link #statsDomain} its row in
 * domain_stats.csv and the name of its stats file.
 */
public enum TraceFile {
    KERNEL("kernel_trace", "kernel_trace", "KERNEL_DISPATCH", "kernel_stats", Columns.KERNEL),
    HIP_API("hip_api", "hip_api_trace", "HIP_API", "hip_api_stats", Columns.API),
    /** NVIDIA's runtime and driver API (CUDA_RUNTIME_API, CUDA_DRIVER_API rows), asked by --hip-trace. */
    CUDA_API("hip_api", "cuda_api_trace", "CUDA_API", "cuda_api_stats", Columns.API),
    HSA_API("hsa_api", "hsa_api_trace", "HSA_API", "hsa_api_stats", Columns.API),
    MARKER_API("marker_api", "marker_api_trace", "MARKER_API", "marker_api_stats", Columns.API),
    RCCL_API("rccl_api", "rccl_api_trace", "RCCL_API", "rccl_api_stats", Columns.API),
    MEMORY_COPY("memory_copy", "memory_copy_trace", "MEMORY_COPY", "memory_copy_stats", Columns.MEMORY_COPY),
    MEMORY_ALLOCATION(
            "memory_allocation",
            "memory_allocation_trace",
            "MEMORY_ALLOCATION",
            "memory_allocation_stats",
            Columns.MEMORY_ALLOCATION),
    SCRATCH_MEMORY(
            "scratch_memory", "scratch_memory_trace", "SCRATCH_MEMORY", "scratch_memory_stats", Columns.SCRATCH_MEMORY);

    public final String trace;
    public final String fileName;
    public final String statsDomain;
    public final String statsFileName;
    public final List<String> columns;

    TraceFile(String trace, String fileName, String statsDomain, String statsFileName, List<String> columns) {
        this.trace = trace;
        this.fileName = fileName;
        this.statsDomain = statsDomain;
        this.statsFileName = statsFileName;
        this.columns = columns;
    }

    /** The seeds' column lists. */
    public static final class Columns {
        private Columns() {}

        public static final List<String> API = List.of(
                "Domain", "Function", "Process_Id", "Thread_Id", "Correlation_Id", "Start_Timestamp", "End_Timestamp");

        public static final List<String> KERNEL = List.of(
                "Kind",
                "Agent_Id",
                "Queue_Id",
                "Stream_Id",
                "Thread_Id",
                "Dispatch_Id",
                "Kernel_Id",
                "Kernel_Name",
                "Correlation_Id",
                "Start_Timestamp",
                "End_Timestamp",
                "LDS_Block_Size",
                "Scratch_Size",
                "VGPR_Count",
                "Accum_VGPR_Count",
                "SGPR_Count",
                "Workgroup_Size_X",
                "Workgroup_Size_Y",
                "Workgroup_Size_Z",
                "Grid_Size_X",
                "Grid_Size_Y",
                "Grid_Size_Z");

        public static final List<String> MEMORY_COPY = List.of(
                "Kind",
                "Direction",
                "Stream_Id",
                "Source_Agent_Id",
                "Destination_Agent_Id",
                "Correlation_Id",
                "Start_Timestamp",
                "End_Timestamp");

        public static final List<String> MEMORY_ALLOCATION = List.of(
                "Kind",
                "Operation",
                "Agent_Id",
                "Allocation_Size",
                "Address",
                "Correlation_Id",
                "Start_Timestamp",
                "End_Timestamp");

        public static final List<String> SCRATCH_MEMORY = List.of(
                "Kind",
                "Operation",
                "Agent_Id",
                "Queue_Id",
                "Thread_Id",
                "Alloc_Flags",
                "Start_Timestamp",
                "End_Timestamp",
                "Allocation_Size");

        public static final List<String> STATS =
                List.of("Name", "Calls", "TotalDurationNs", "AverageNs", "Percentage", "MinNs", "MaxNs", "StdDev");

        public static final List<String> AGENT_INFO = List.of(
                "Node_Id",
                "Logical_Node_Id",
                "Agent_Type",
                "Cpu_Cores_Count",
                "Simd_Count",
                "Cpu_Core_Id_Base",
                "Simd_Id_Base",
                "Max_Waves_Per_Simd",
                "Lds_Size_In_Kb",
                "Gds_Size_In_Kb",
                "Num_Gws",
                "Wave_Front_Size",
                "Num_Xcc",
                "Cu_Count",
                "Array_Count",
                "Num_Shader_Banks",
                "Simd_Arrays_Per_Engine",
                "Cu_Per_Simd_Array",
                "Simd_Per_Cu",
                "Max_Slots_Scratch_Cu",
                "Gfx_Target_Version",
                "Vendor_Id",
                "Device_Id",
                "Location_Id",
                "Domain",
                "Drm_Render_Minor",
                "Num_Sdma_Engines",
                "Num_Sdma_Xgmi_Engines",
                "Num_Sdma_Queues_Per_Engine",
                "Num_Cp_Queues",
                "Max_Engine_Clk_Ccompute",
                "Max_Engine_Clk_Fcompute",
                "Sdma_Fw_Version",
                "Fw_Version",
                "Capability",
                "Cu_Per_Engine",
                "Max_Waves_Per_Cu",
                "Family_Id",
                "Workgroup_Max_Size",
                "Grid_Max_Size",
                "Local_Mem_Size",
                "Hive_Id",
                "Gpu_Id",
                "Workgroup_Max_Dim_X",
                "Workgroup_Max_Dim_Y",
                "Workgroup_Max_Dim_Z",
                "Grid_Max_Dim_X",
                "Grid_Max_Dim_Y",
                "Grid_Max_Dim_Z",
                "Name",
                "Vendor_Name",
                "Product_Name",
                "Model_Name");
    }
}
