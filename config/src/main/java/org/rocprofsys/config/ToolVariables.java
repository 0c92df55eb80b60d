package org.rocprofsys.config;

import java.util.List;
import java.util.Set;

/**
 * The {@code ROCPROFSYS_*} environment variables that are not settings but that the tools, the
 * launch script, the agent or the project's tests read (or that upstream reads directly). An
 * environment variable with the prefix that is neither a setting nor one of these is a typo the
 * loader warns about, naming the nearest setting.
 */
final class ToolVariables {
    private ToolVariables() {}

    private static final Set<String> NAMES = Set.of(
            "ROCPROFSYS_CONFIG_FILE",
            "ROCPROFSYS_CUPTI_LIBRARY",
            "ROCPROFSYS_DATABASE_DIR",
            "ROCPROFSYS_DEFAULT_MIN_INSTRUCTIONS",
            "ROCPROFSYS_INIT_ENABLED",
            "ROCPROFSYS_INSTRUMENT_MODE",
            "ROCPROFSYS_INSTRUMENT_PLAN",
            "ROCPROFSYS_JAVA",
            "ROCPROFSYS_JAVA_OPTIONS",
            "ROCPROFSYS_NUM_THREADS",
            "ROCPROFSYS_PERFETTO_BACKEND_SYSTEM",
            "ROCPROFSYS_PERFETTO_PROTO",
            "ROCPROFSYS_PROCESS_SAMPLING_DELAY",
            "ROCPROFSYS_SAMPLING_PROCESS_DURATION",
            "ROCPROFSYS_SAMPLING_USE_PERF",
            "ROCPROFSYS_SCRIPT_PATH",
            "ROCPROFSYS_SESSION_DIR",
            "ROCPROFSYS_COMMAND_LINE",
            "ROCPROFSYS_CAUSAL_DEBUG",
            "ROCPROFSYS_CAUSAL_VERBOSE",
            "ROCPROFSYS_VERBOSE_INSTRUMENT",
            "ROCPROFSYS_CUDA_EXAMPLES",
            "ROCPROFSYS_LAUNCH_STATE");

    /** Families: the agent's private variables, rocprof-sys-python's, instrument's regexes, the tests' and benchmarks'. */
    private static final List<String> PREFIXES = List.of(
            "ROCPROFSYS_AGENT_", "ROCPROFSYS_PYTHON_", "ROCPROFSYS_REGEX_", "ROCPROFSYS_TEST_", "ROCPROFSYS_BENCH_");

    static boolean known(String name) {
        return NAMES.contains(name) || PREFIXES.stream().anyMatch(name::startsWith);
    }
}
