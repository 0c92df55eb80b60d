package org.rocprofsys.sampler.source;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.rocprofsys.config.Settings;
import org.rocprofsys.core.counters.CpuEvents;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.pipeline.BackgroundSource;
import org.rocprofsys.core.wire.WireFormat;
import org.rocprofsys.sampler.counters.CpuEventResolver;
import org.rocprofsys.sampler.counters.PerfCounter;

/**
 * The CPU counters regions carry (ROCPROFSYS_PAPI_EVENTS with papi_array among the timemory
 * components) and the agent's stack samples carry (with USE_SAMPLING; perf's samples do not): the
 * events resolved and checked before the launch, handed to the agent as
 * {@code type:config} pairs; the agent reads them itself with every region, so this source
 * collects nothing while the target runs.
 */
public final class CpuCounters implements BackgroundSource {
    private final List<PerfCounter> counters;

    private CpuCounters(List<PerfCounter> counters) {
        this.counters = List.copyOf(counters);
    }

    /**
     * @throws IllegalArgumentException for an unknown event or one this machine cannot count
     */
    public static List<BackgroundSource> sources(Settings settings) {
        CpuEvents events = CpuEvents.from(settings);
        // with regions (papi_array), and with the agent's stack samples, which carry them too
        if (events.isEmpty() || !(events.withRegions(settings) || settings.bool("ROCPROFSYS_USE_SAMPLING"))) {
            return List.of();
        }
        return List.of(new CpuCounters(CpuEventResolver.resolve(events.names())));
    }

    @Override
    public Map<String, String> targetEnvironment(Path sessionDirectory) {
        return Map.of(
                WireFormat.ENV_COUNTERS,
                counters.stream().map(c -> c.type() + ":" + c.config()).collect(Collectors.joining(",")));
    }

    @Override
    public void start(int targetPid, Consumer<TraceEvent> out) {}

    @Override
    public void stop(long timestampNs) {}
}
