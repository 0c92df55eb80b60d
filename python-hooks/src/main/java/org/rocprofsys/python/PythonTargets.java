package org.rocprofsys.python;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.rocprofsys.config.Settings;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.spi.InterceptStage;
import org.rocprofsys.core.spi.TargetEnvironmentContribution;

/**
 * What a run does for Python targets: where the rocprofsys package is on the target's PYTHONPATH
 * (rocprof-sys-python, or a script that imports it itself), its Python functions are the profile's
 * roots and the interpreter's main region is left out ({@link InterpreterMainRegion}); otherwise the
 * interpreter is a plain program with its main region, and the run says once what gives Python
 * functions ({@link PlainInterpreterNotice}). With call-stack sampling on, CPython's perf trampoline is
 * turned on ({@code PYTHONPERFSUPPORT=1}, read by Python 3.12 and later, ignored by everything
 * else) so that sampled stacks show Python functions through the {@code /tmp/perf-<pid>.map} the
 * interpreter writes. No thread of its own.
 */
public final class PythonTargets implements TargetEnvironmentContribution, InterceptStage {
    static final String PERF_SUPPORT = "PYTHONPERFSUPPORT";

    private final boolean perfTrampoline;
    private final boolean packageOnPath;
    private final PrintStream log;

    PythonTargets(boolean perfTrampoline, boolean packageOnPath, PrintStream log) {
        this.perfTrampoline = perfTrampoline;
        this.packageOnPath = packageOnPath;
        this.log = log;
    }

    /** The run's Python source: the trampoline when sampling and the user did not choose. */
    public static List<PythonTargets> sources(
            Settings settings, Map<String, String> targetEnvironment, PrintStream log) {
        boolean trampoline = settings.bool("ROCPROFSYS_USE_SAMPLING") && !targetEnvironment.containsKey(PERF_SUPPORT);
        return List.of(new PythonTargets(trampoline, packageOnPath(targetEnvironment.get("PYTHONPATH")), log));
    }

    /** Whether an entry of PYTHONPATH holds the rocprofsys package. */
    static boolean packageOnPath(String pythonPath) {
        if (pythonPath == null) {
            return false;
        }
        for (String entry : pythonPath.split(":")) {
            try {
                if (!entry.isEmpty() && Files.isRegularFile(Path.of(entry, "rocprofsys", "__init__.py"))) {
                    return true;
                }
            } catch (InvalidPathException e) {
                // not a path this JVM can name: not where the package is
            }
        }
        return false;
    }

    @Override
    public Map<String, String> targetEnvironment(Path sessionDirectory) {
        return perfTrampoline ? Map.of(PERF_SUPPORT, "1") : Map.of();
    }

    @Override
    public Consumer<TraceEvent> intercept(Consumer<TraceEvent> downstream) {
        return packageOnPath ? new InterpreterMainRegion(downstream) : new PlainInterpreterNotice(downstream, log);
    }
}
