package org.rocprofsys.rocm.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.core.perfetto.DecodedTrace;
import org.rocprofsys.core.perfetto.DecodedTrace.Slice;

/**
 * Replayed rocprofiler-sdk sessions (src/test/c: the replay SDK and upstream's example programs as
 * scripts) through the real tool, agent, collector and outputs, checked with upstream's own
 * expectations (rocprofiler-systems tests/*.cmake, validated as validate-perfetto-proto.py does).
 */
class ReplaySessionsTest {
    @TempDir
    Path dir;

    private static Map<String, Long> count(DecodedTrace t, String category) {
        return t.slices.stream()
                .filter(s -> category.equals(s.category))
                .collect(Collectors.groupingBy(s -> s.name, TreeMap::new, Collectors.counting()));
    }

    private static Set<String> trackNames(DecodedTrace t, String prefix) {
        return t.tracks.values().stream()
                .map(tr -> tr.descriptor().getName())
                .filter(n -> n.startsWith(prefix))
                .collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    /** rocprof-sys-roctx-tests.cmake: validate roctx-api-sampling (-m rocm_marker_api). */
    @Test
    void roctxExampleGivesUpstreamsLabelsCountsAndDepths() throws Exception {
        ReplayRun run = ReplayRun.of(
                "roctx", Map.of("ROCPROFSYS_ROCM_DOMAINS", "hip_runtime_api,marker_api,kernel_dispatch"), dir);
        assertEquals(0, run.target().exitCode(), run.target().all());
        UpstreamValidation.validate(
                run.trace(),
                Set.of("rocm_marker_api"),
                List.of(
                        "roctxMark_GPU_workload",
                        "roctxRangePush_run_profiling",
                        "roctxRangeStart_GPU_Compute",
                        "roctxRangeStart_GPU_Compute",
                        "roctxRangePush_HIP_Kernel",
                        "roctxRangePush_HIP_Kernel",
                        "roctxGetThreadId",
                        "roctxMark_RoctxProfilerPause_End",
                        "roctxMark_Thread_Start",
                        "roctxMark_End",
                        "roctxMark_Finished_GPU"),
                List.of(1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L),
                List.of(1, 1, 2, 0, 3, 1, 2, 2, 0, 0, 1));
        // the HIP calls inside the ranges, and one kernel per gpu_workload()
        Map<String, Long> hip = count(run.trace(), "rocm_hip_api");
        assertEquals(2L, hip.get("hipLaunchKernel"));
        assertEquals(2L, hip.get("hipMalloc"));
        Map<String, Long> kernels = count(run.trace(), "rocm_kernel_dispatch");
        assertEquals(Map.of("hipKernelLaunch(int*) [clone .kd]", 2L), kernels, "demangled as __cxa_demangle does");
        assertEquals(Set.of("GPU Kernel Dispatch [0] Queue 1"), trackNames(run.trace(), "GPU Kernel Dispatch"));
        flowsJoinCallsToDeviceWork(run.trace());
    }

    /** Every kernel and copy ends a flow that an API call on a thread began earlier. */
    static void flowsJoinCallsToDeviceWork(DecodedTrace t) {
        Map<Long, Slice> starts = new HashMap<>();
        for (Slice s : t.slices) {
            if (s.category != null && s.category.endsWith("_api")) {
                s.flowIds.forEach(id -> starts.putIfAbsent(id, s));
            }
        }
        List<Slice> device = t.slices.stream()
                .filter(s -> Set.of("rocm_kernel_dispatch", "rocm_hip_stream", "rocm_memory_copy")
                        .contains(s.category))
                .toList();
        assertFalse(device.isEmpty());
        for (Slice d : device) {
            assertEquals(1, d.terminatingFlowIds.size(), d.toString());
            Slice call = starts.get(d.terminatingFlowIds.getFirst());
            assertTrue(call != null, "no API call starts the flow of " + d);
            assertTrue(call.beginNs <= d.beginNs, call + " -> " + d);
            assertEquals(d.args.get("corr_id"), call.args.get("corr_id"), d + " <- " + call);
        }
    }
}
