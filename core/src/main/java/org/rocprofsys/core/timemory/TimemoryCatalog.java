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
                        c == Component.TRIP_COUNT ? "size_t" : "int64_t",
                        String.join(" ", c.ids()),
                        c.label(),
                        c.description(),
                        switch (c) {
                            case WALL_CLOCK, CPU_CLOCK -> "timing";
                            case PEAK_RSS, PAGE_RSS -> "memory";
                            case TRIP_COUNT -> "counting";
                        }))
                .toList();
    }

    @Override
    public List<HardwareCounter> hardwareCounters() {
        return List.of();
    }
}
