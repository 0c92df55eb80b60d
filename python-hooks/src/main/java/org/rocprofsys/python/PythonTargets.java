package org.rocprofsys.python;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.rocprofsys.config.Settings;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.spi.InterceptStage;
import org.rocprofsys.core.spi.TargetEnvironmentContribution;

/**
 * What a run does for Python targets: the interpreter's main region is left out
 * ({@link InterpreterMainRegion}), and with call-stack sampling on, CPython's perf trampoline is
 * turned on ({@code PYTHONPERFSUPPORT=1}, read by Python 3.12 and later, ignored by everything
 * else) so that sampled stacks show Python functions through the {@code /tmp/perf-<pid>.map} the
 * interpreter writes. No thread of its own.
 */
public final class PythonTargets implements TargetEnvironmentContribution, InterceptStage {
    static final String PERF_SUPPORT = "PYTHONPERFSUPPORT";

    private final boolean perfTrampoline;

    PythonTargets(boolean perfTrampoline) {
        this.perfTrampoline = perfTrampoline;
    }

    /** The run's Python source: the trampoline when sampling and the user did not choose. */
    public static List<PythonTargets> sources(Settings settings, Map<String, String> targetEnvironment) {
        boolean trampoline = settings.bool("ROCPROFSYS_USE_SAMPLING") && !targetEnvironment.containsKey(PERF_SUPPORT);
        return List.of(new PythonTargets(trampoline));
    }

    @Override
    public Map<String, String> targetEnvironment(Path sessionDirectory) {
        return perfTrampoline ? Map.of(PERF_SUPPORT, "1") : Map.of();
    }

    @Override
    public Consumer<TraceEvent> intercept(Consumer<TraceEvent> downstream) {
        return new InterpreterMainRegion(downstream);
    }
}
