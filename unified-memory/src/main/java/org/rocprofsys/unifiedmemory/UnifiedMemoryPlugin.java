package org.rocprofsys.unifiedmemory;

import java.util.List;
import org.rocprofsys.core.output.OutputFormat;
import org.rocprofsys.core.spi.Plugin;
import org.rocprofsys.core.spi.PluginContext;
import org.rocprofsys.core.spi.SourceProvider;
import org.rocprofsys.unifiedmemory.kfd.KfdEvents;
import org.rocprofsys.unifiedmemory.report.UnifiedMemoryFormat;

/** unified-memory's bundle: seed 000's report and the KFD events that feed it on AMD machines. */
public final class UnifiedMemoryPlugin implements Plugin {
    public static final UnifiedMemoryPlugin INSTANCE = new UnifiedMemoryPlugin();

    private UnifiedMemoryPlugin() {}

    @Override
    public String name() {
        return "unified-memory";
    }

    @Override
    public List<OutputFormat> outputFormats(PluginContext context) {
        return List.of(new UnifiedMemoryFormat());
    }

    @Override
    public List<SourceProvider> sources(PluginContext context) {
        return List.of((settings, targetEnvironment, log) ->
                settings.bool(UnifiedMemoryFormat.ENABLE) ? List.of(new KfdEvents(log)) : List.of());
    }
}
