package org.rocprofsys.run;

import java.util.List;
import org.rocprofsys.core.spi.CorePlugins;
import org.rocprofsys.core.spi.Plugin;
import org.rocprofsys.cuda.source.CudaTracing;
import org.rocprofsys.mpi.MpiPlugin;
import org.rocprofsys.processsampling.ProcessSampling;
import org.rocprofsys.python.PythonTargets;
import org.rocprofsys.rocm.source.RocmTracing;
import org.rocprofsys.rocprofv3.Rocprofv3Plugin;
import org.rocprofsys.sampler.source.CallStackSampling;
import org.rocprofsys.sampler.source.CpuCounters;
import org.rocprofsys.threading.ThreadingTools;
import org.rocprofsys.unifiedmemory.UnifiedMemoryPlugin;

/**
 * The registration list: every plugin bundle a run uses, one line each (Perfetto's
 * {@code builtin_trace_importers.h} is the model). Their output formats are finished, and listed
 * in metadata.json, in this order; their sources are started, and their intercept stages see the
 * events, in this order. A new module adds its bundle here (and itself as a dependency of run/).
 */
final class BuiltinPlugins {
    private BuiltinPlugins() {}

    static final List<Plugin> ALL = List.of(
            CorePlugins.OUTPUTS,
            Plugin.ofSources("process-sampling", (settings, env, log) -> ProcessSampling.sources(settings, log)),
            Plugin.ofSources(
                    "sampler", CallStackSampling::sources, (settings, env, log) -> CpuCounters.sources(settings, log)),
            CudaTracing.PLUGIN,
            RocmTracing.PLUGIN,
            UnifiedMemoryPlugin.INSTANCE,
            MpiPlugin.INSTANCE,
            Plugin.ofSources("python-hooks", (settings, env, log) -> PythonTargets.sources(settings, env, log)),
            ThreadingTools.PLUGIN,
            Rocprofv3Plugin.INSTANCE,
            CorePlugins.ROCPD);
}
