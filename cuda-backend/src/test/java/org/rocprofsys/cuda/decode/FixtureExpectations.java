package org.rocprofsys.cuda.decode;

import java.util.Map;

/** What the fixtures recorded, as the decoder's and the pipeline's tests both expect it. */
public final class FixtureExpectations {
    private FixtureExpectations() {}

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
