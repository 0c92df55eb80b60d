package org.rocprofsys.core.timemory;

import java.util.List;
import org.rocprofsys.config.avail.AvailCatalog;
import org.rocprofsys.config.avail.AvailableComponent;
import org.rocprofsys.config.avail.HardwareCounter;

/**
 * The timemory components this build really collects, for rocprof-sys-avail's component table
 * (registered through META-INF/services). Their categories follow timemory's groups.
 */
public final class TimemoryCatalog implements AvailCatalog {
    @Override
    public List<AvailableComponent> components() {
        return java.util.Arrays.stream(Component.values())
                .map(c -> new AvailableComponent(
                        c.label(),
                        true,
                        switch (c) {
                            case TRIP_COUNT -> "size_t";
                            case CPU_UTIL, THREAD_CPU_UTIL -> "std::pair<int64_t, int64_t>";
                            case PAPI_ARRAY -> "std::array<long long, 8>";
                            default -> "int64_t";
                        },
                        String.join(" ", c.ids()),
                        c.label(),
                        c.description(),
                        switch (c) {
                            case WALL_CLOCK, CPU_CLOCK, THREAD_CPU_CLOCK, CPU_UTIL, THREAD_CPU_UTIL -> "timing";
                            case PEAK_RSS, PAGE_RSS, VIRTUAL_MEMORY -> "memory";
                            case USER_MODE_TIME,
                                    KERNEL_MODE_TIME,
                                    NUM_MAJOR_PAGE_FAULTS,
                                    NUM_MINOR_PAGE_FAULTS,
                                    VOLUNTARY_CONTEXT_SWITCH,
                                    PRIORITY_CONTEXT_SWITCH -> "resource_usage";
                            case PAPI_ARRAY -> "hardware_counter";
                            case TRIP_COUNT -> "counting";
                        }))
                .toList();
    }

    @Override
    public List<HardwareCounter> hardwareCounters() {
        return List.of();
    }
}
