package org.rocprofsys.core.gpu;

/**
 * A GPU tracing vendor as the writers know it: the names its backend supplies, so that no writer
 * names a vendor. A backend defines one and its {@link GpuDomain}s; its events carry them.
 *
 * @param name              the vendor's name in messages ({@code CUDA}, {@code ROCm})
 * @param tracingSetting    the setting that turns its tracing on ({@code ROCPROFSYS_USE_CUDA}); the
 *                          GPU summaries are written when any vendor's is on
 * @param apiStatsTable     the stats table of its API calls ({@code cuda_api_stats},
 *                          {@code hip_api_stats})
 * @param counterComponent  rocpd_info_pmc's component: the library that collects its counters
 * @param rocpdStreamLabel  the rocpd queue and stream rows' name before {@code <stream> [<device>]}
 */
public record GpuVendor(
        String name, String tracingSetting, String apiStatsTable, String counterComponent, String rocpdStreamLabel) {

    /** A domain of this vendor (see {@link GpuDomain}). */
    public GpuDomain domain(String settingName, String category) {
        return new GpuDomain(this, settingName, category, false, false);
    }
}
