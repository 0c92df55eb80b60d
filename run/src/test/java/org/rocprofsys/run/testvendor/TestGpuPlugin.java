package org.rocprofsys.run.testvendor;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.gpu.GpuVendor;
import org.rocprofsys.core.spi.BackendRecords;
import org.rocprofsys.core.spi.Plugin;
import org.rocprofsys.core.spi.PluginContext;
import org.rocprofsys.core.spi.RecordDecoder;
import org.rocprofsys.core.spi.SourceProvider;
import org.rocprofsys.core.spi.TargetEnvironmentContribution;

/**
 * The test-only GPU vendor's bundle: its vendor descriptor and its source, whose parts are the
 * decoder of its ring records and the variable that would load its target-side library.
 */
public final class TestGpuPlugin implements Plugin {
    public static final TestGpuPlugin INSTANCE = new TestGpuPlugin();

    private TestGpuPlugin() {}

    /** The session part of a run that traces the test vendor. */
    static final class Source implements RecordDecoder, TargetEnvironmentContribution {
        @Override
        public BackendRecords open(int pid, Consumer<TraceEvent> out) {
            return new TestGpuDecoder(pid, out);
        }

        @Override
        public Map<String, String> targetEnvironment(Path sessionDirectory) {
            return Map.of("TESTGPU_TOOL", "libtestgpu.so");
        }
    }

    @Override
    public String name() {
        return "testvendor";
    }

    @Override
    public List<GpuVendor> gpuVendors() {
        return List.of(TestGpu.VENDOR);
    }

    @Override
    public List<SourceProvider> sources(PluginContext context) {
        return List.of((settings, targetEnvironment, log) ->
                settings.bool(TestGpu.VENDOR.tracingSetting()) ? List.of(new Source()) : List.of());
    }
}
