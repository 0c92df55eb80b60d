package org.rocprofsys.core.gpu;

/**
 * A tracing domain of a GPU vendor, defined by its backend: the name users give in the vendor's
 * domain setting ({@code ROCPROFSYS_CUDA_DOMAINS}, {@code ROCPROFSYS_ROCM_DOMAINS}) and the
 * category of its events in the trace and in rocpd.
 *
 * @param vendor               the backend's vendor
 * @param settingName          the name in settings; upper-cased, the domain's row in the stats
 * @param category             the trace's (and rocpd's) category label of the domain's events
 * @param everyCallStartsFlow  every API call with a correlation id starts a flow (upstream's ROCm
 *                             backend: {@code Flow::ProcessScoped}); else only calls that launch
 *                             device work ({@link #startsFlow})
 * @param nested               an API whose calls run inside another domain's calls with the same
 *                             correlation id (CUDA's driver API under its runtime API): its call
 *                             does not replace the launching call already known for that id
 */
public record GpuDomain(
        GpuVendor vendor, String settingName, String category, boolean everyCallStartsFlow, boolean nested) {

    /** The same domain with {@link #everyCallStartsFlow} on. */
    public GpuDomain withEveryCallStartingFlows() {
        return new GpuDomain(vendor, settingName, category, true, nested);
    }

    /** The same domain marked {@link #nested}. */
    public GpuDomain asNested() {
        return new GpuDomain(vendor, settingName, category, everyCallStartsFlow, true);
    }

    /**
     * Whether a call of {@code function} in this domain starts a flow to the device work its
     * correlation id leads to: every call where {@link #everyCallStartsFlow}, else a launch, copy
     * or memset, so that no flow dangles from an allocation.
     */
    public boolean startsFlow(String function) {
        return everyCallStartsFlow
                || function.contains("Launch")
                || function.contains("Memcpy")
                || function.contains("Memset");
    }

    @Override
    public String toString() {
        return vendor.name() + ":" + settingName;
    }
}
