package org.rocprofsys.cuda.decode;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** What the fixtures recorded, as the decoder's and the pipeline's tests both expect it. */
public final class FixtureExpectations {
    private FixtureExpectations() {}

    /** The examples/cuda programs recorded as they are, each the fixture of its own name. */
    public static final List<String> RECORDED_EXAMPLES = List.of(
            "vector-add",
            "streams",
            "templated",
            "nvtx",
            "two-threads",
            "launch-loop",
            "crash-after-kernels",
            "cupti-subscriber");

    /** {@link #RECORDED_EXAMPLES} followed by {@code more}. */
    public static List<String> recordedExamplesAnd(String... more) {
        return Stream.concat(RECORDED_EXAMPLES.stream(), Stream.of(more)).toList();
    }

    /** The CUDA runtime calls of the vector-add fixture, by function. */
    public static final Map<String, Long> RUNTIME_CALLS = Map.ofEntries(
            Map.entry("cudaMalloc", 3L),
            Map.entry("cudaMemcpy", 3L),
            Map.entry("cudaMemset", 1L),
            Map.entry("cudaLaunchKernel", 6L),
            Map.entry("cudaGetLastError", 1L),
            Map.entry("cudaDeviceGetAttribute", 1L),
            Map.entry("cudaEventCreate", 2L),
            Map.entry("cudaEventRecord", 10L),
            Map.entry("cudaEventSynchronize", 5L),
            Map.entry("cudaEventElapsedTime", 5L),
            Map.entry("cudaEventDestroy", 2L),
            Map.entry("cudaFree", 3L));

    /** The kernels of the templated fixture, demangled, by name. */
    public static final Map<String, Long> TEMPLATED_KERNELS = Map.of(
            "void demo::axpy<float, 4>(float, float const*, float*, int)",
            2L,
            "void demo::axpy<double, 8>(double, double const*, double*, int)",
            1L,
            "void demo::detail::fill<int>(int*, int, int)",
            1L);
}
