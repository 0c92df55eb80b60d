package org.rocprofsys.rocprofv3;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.rocprofsys.config.Settings;

/**
 * What the rocprofv3 front end asked of a run, read from the settings its options set (the
 * {@code ROCPROFSYS_ROCPROFV3_*} rows of settings.tsv), so that the formats read no command line.
 *
 * @param formats     rocprofv3's own formats to write: {@code csv}, {@code json}
 * @param traces      the per-event files asked for (kernel_trace, hip_api, ...)
 * @param outputFile  the files' prefix template (rocprofv3 {@code -o}, with its %keys%)
 */
public record Rocprofv3Settings(
        Set<String> formats,
        Set<String> traces,
        String outputFile,
        boolean stats,
        boolean summary,
        boolean summaryPerDomain,
        String summaryOutputFile,
        String summaryUnits,
        boolean truncateKernels,
        boolean mangledKernels) {

    public static Rocprofv3Settings of(Settings settings) {
        return new Rocprofv3Settings(
                words(settings.get("ROCPROFSYS_ROCPROFV3_FORMATS")),
                words(settings.get("ROCPROFSYS_ROCPROFV3_TRACES")),
                settings.get("ROCPROFSYS_ROCPROFV3_OUTPUT_FILE"),
                settings.bool("ROCPROFSYS_ROCPROFV3_STATS"),
                settings.bool("ROCPROFSYS_ROCPROFV3_SUMMARY"),
                settings.bool("ROCPROFSYS_ROCPROFV3_SUMMARY_PER_DOMAIN"),
                settings.get("ROCPROFSYS_ROCPROFV3_SUMMARY_OUTPUT_FILE"),
                settings.get("ROCPROFSYS_ROCPROFV3_SUMMARY_UNITS"),
                settings.bool("ROCPROFSYS_ROCPROFV3_TRUNCATE_KERNELS"),
                settings.bool("ROCPROFSYS_ROCPROFV3_MANGLED_KERNELS"));
    }

    /** Whether the run writes anything of rocprofv3's own. */
    public boolean any() {
        return !formats.isEmpty() || stats || summary || summaryPerDomain;
    }

    static Set<String> words(String list) {
        if (list == null || list.isBlank()) {
            return Set.of();
        }
        List<String> parts = Arrays.stream(list.split("[,\\s]+"))
                .filter(s -> !s.isEmpty())
                .map(s -> s.toLowerCase(Locale.ROOT))
                .toList();
        return new TreeSet<>(parts);
    }
}
