package org.rocprofsys.sampler.source;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.rocprofsys.config.Settings;
import org.rocprofsys.core.counters.CpuEvents;
import org.rocprofsys.core.spi.TargetEnvironmentContribution;
import org.rocprofsys.core.wire.WireFormat;
import org.rocprofsys.sampler.counters.CpuEventResolver;

/**
 * The CPU counters regions carry (ROCPROFSYS_PAPI_EVENTS with papi_array among the timemory
 * components) and the agent's stack samples carry (with USE_SAMPLING; perf's samples carry them
 * through {@link PerfSamplingSource}'s own group): the
 * events resolved and checked before the launch, handed to the agent as
 * {@code type:config} pairs; the agent reads them itself with every region, so this source
 * collects nothing while the target runs.
 */
public final class CpuCounters implements TargetEnvironmentContribution {
    private final String agentSpec;

    private CpuCounters(String agentSpec) {
        this.agentSpec = agentSpec;
    }

    /**
     * An event that is unknown or cannot be counted here is left out with a warning (its values
     * are absent), as PAPI does, unless ROCPROFSYS_PAPI_FAIL_ON_ERROR makes it an error;
     * ROCPROFSYS_PAPI_QUIET silences the warnings.
     *
     * @throws IllegalArgumentException with ROCPROFSYS_PAPI_FAIL_ON_ERROR, naming every refused event
     */
    public static List<CpuCounters> sources(Settings settings, PrintStream log) {
        CpuEvents events = CpuEvents.from(settings);
        // with regions (papi_array), and with the agent's stack samples, which carry them too
        if (events.isEmpty() || !(events.withRegions(settings) || settings.bool("ROCPROFSYS_USE_SAMPLING"))) {
            return List.of();
        }
        CpuEventResolver.Resolution r = CpuEventResolver.resolve(events.names());
        if (!r.problems().isEmpty()) {
            if (settings.bool("ROCPROFSYS_PAPI_FAIL_ON_ERROR")) {
                throw new IllegalArgumentException(CpuEvents.SETTING + ": " + String.join("; ", r.problems()));
            }
            if (!settings.bool("ROCPROFSYS_PAPI_QUIET")) {
                for (String p : r.problems()) {
                    log.println("[rocprof-sys] warning: " + CpuEvents.SETTING + ": " + p + "; it is not recorded");
                }
            }
        }
        if (!settings.bool("ROCPROFSYS_PAPI_QUIET")) {
            r.notes().forEach(n -> log.println("[rocprof-sys] warning: " + CpuEvents.SETTING + ": " + n));
        }
        return r.counts() ? List.of(new CpuCounters(r.agentSpec())) : List.of();
    }

    @Override
    public Map<String, String> targetEnvironment(Path sessionDirectory) {
        return Map.of(WireFormat.ENV_COUNTERS, agentSpec);
    }
}
