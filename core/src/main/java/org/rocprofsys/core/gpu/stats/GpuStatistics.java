package org.rocprofsys.core.gpu.stats;

import java.util.List;
import org.rocprofsys.core.gpu.GpuApiCall;
import org.rocprofsys.core.gpu.GpuDomain;
import org.rocprofsys.core.gpu.GpuEvent;
import org.rocprofsys.core.gpu.GpuKernel;
import org.rocprofsys.core.gpu.GpuMemoryCopy;
import org.rocprofsys.core.gpu.GpuMemorySet;

/**
 * Builds the stats tables from GPU events: kernels by name, API calls by function (runtime and
 * driver), copies by direction (upstream's operation names, {@code MEMORY_COPY_HOST_TO_DEVICE}),
 * and every timed event by domain (an API call's domain's setting name upper-cased,
 * {@code KERNEL_DISPATCH}, {@code MEMORY_COPY}, {@code MEMORY_SET}). Feed it one vendor's events,
 * in any order.
 */
public final class GpuStatistics {
    private final StatsTable kernels = new StatsTable("kernel_stats");
    private final StatsTable api;
    private final StatsTable copies = new StatsTable("memory_copy_stats");
    private final StatsTable domains = new StatsTable("domain_stats");

    /** @param apiTableName the vendor's ({@link org.rocprofsys.core.gpu.GpuVendor#apiStatsTable}) */
    public GpuStatistics(String apiTableName) {
        this.api = new StatsTable(apiTableName);
    }

    public void accept(GpuEvent event) {
        switch (event) {
            case GpuKernel k -> {
                kernels.add(k.name(), k.durationNs());
                domains.add("KERNEL_DISPATCH", k.durationNs());
            }
            case GpuApiCall c -> {
                long d = c.endNs() - c.beginNs();
                api.add(c.function(), d);
                domains.add(domainName(c.domain()), d);
            }
            case GpuMemoryCopy c -> {
                copies.add(c.kind().operationName(), c.durationNs());
                domains.add("MEMORY_COPY", c.durationNs());
            }
            case GpuMemorySet s -> domains.add("MEMORY_SET", s.durationNs());
            default -> {
                // devices, synchronisations, allocations and markers have no stats table
            }
        }
    }

    private static String domainName(GpuDomain d) {
        return d.settingName().toUpperCase(java.util.Locale.ROOT);
    }

    /** The tables that have rows, in upstream's order. */
    public List<StatsTable> tables() {
        return List.of(kernels, api, copies, domains).stream()
                .filter(t -> !t.isEmpty())
                .toList();
    }
}
