package org.rocprofsys.rocprofv3;

import java.util.List;
import org.rocprofsys.core.spi.Plugin;
import org.rocprofsys.core.spi.SourceProvider;
import org.rocprofsys.rocprofv3.filter.KernelFilter;

/**
 * rocprofv3's bundle: its formats (per-event CSV, stats, summary, JSON) and its kernel filter,
 * a stage every output sees through. Both do nothing unless the rocprofv3 front end's settings
 * ask (ROCPROFSYS_ROCPROFV3_*), so the bundle sits in the one registration list of every launcher.
 */
public final class Rocprofv3Plugin {
    public static final Plugin INSTANCE = Plugin.of(
            "rocprofv3",
            context -> List.of(new Rocprofv3Format()),
            context -> List.<SourceProvider>of(
                    (settings, env, log) -> KernelFilter.of(settings).stream().toList()));

    private Rocprofv3Plugin() {}
}
