package org.rocprofsys.unifiedmemory;

import java.util.List;
import org.rocprofsys.core.spi.Plugin;
import org.rocprofsys.core.spi.SourceProvider;
import org.rocprofsys.unifiedmemory.kfd.KfdEvents;
import org.rocprofsys.unifiedmemory.report.UnifiedMemoryFormat;

/** unified-memory's bundle: seed 000's report and the KFD events that feed it on AMD machines. */
public final class UnifiedMemoryPlugin {
    public static final Plugin INSTANCE = Plugin.of(
            "unified-memory",
            context -> List.of(new UnifiedMemoryFormat()),
            context -> List.<SourceProvider>of((settings, targetEnvironment, log) ->
                    settings.bool(UnifiedMemoryFormat.ENABLE) ? List.of(new KfdEvents(log)) : List.of()));

    private UnifiedMemoryPlugin() {}
}
