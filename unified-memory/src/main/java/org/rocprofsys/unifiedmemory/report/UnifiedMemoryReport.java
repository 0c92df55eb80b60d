package org.rocprofsys.unifiedmemory.report;

import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.rocprofsys.core.gpu.GpuDevice;
import org.rocprofsys.core.gpu.GpuEvent;
import org.rocprofsys.core.gpu.GpuPageFault;
import org.rocprofsys.core.gpu.GpuPageMigration;
import org.rocprofsys.core.gpu.MigrationDirection;
import org.rocprofsys.core.gpu.MigrationTrigger;

/**
 * What one process's unified memory did: the migrations of each device by direction, the page
 * faults, and what triggered the migrations.
 *
 * <p>Triggers count requests, not migrations: the ranges one GPU fault moved (one fault group)
 * count once, every other migration (a CPU fault, a prefetch, an eviction) counts once. Page
 * faults are the {@link GpuPageFault}s the backend reported (KFD's GPU faults, plus one CPU fault
 * per migration a CPU fault triggered; CUPTI's counts of both); a fault the driver served without
 * migrating (KFD's "updated") is a fault but triggers nothing.
 */
public final class UnifiedMemoryReport {
    private final Map<Integer, Map<MigrationDirection, MigrationTotals>> devices = new TreeMap<>();
    private final Map<Integer, String> deviceNames = new TreeMap<>();
    private final Map<MigrationTrigger, Long> triggers = new EnumMap<>(MigrationTrigger.class);
    private final Set<Long> faultGroups = new HashSet<>();
    private long pageFaults;
    private boolean any;

    public void accept(GpuEvent event) {
        switch (event) {
            case GpuPageMigration m -> migration(m);
            case GpuPageFault f -> {
                any = true;
                pageFaults += f.count();
            }
            case GpuDevice d -> deviceNames.putIfAbsent(d.index(), d.name());
            default -> {
                // kernels, copies, API calls: not unified-memory events
            }
        }
    }

    private void migration(GpuPageMigration m) {
        any = true;
        devices.computeIfAbsent(m.device(), d -> new EnumMap<>(MigrationDirection.class))
                .computeIfAbsent(m.direction(), d -> new MigrationTotals())
                .add(m.bytes(), m.durationNs());
        if (m.faultGroup() == 0 || faultGroups.add(m.faultGroup())) {
            triggers.merge(m.trigger(), 1L, Long::sum);
        }
    }

    /** Whether the process had any unified-memory event (otherwise no report is written). */
    public boolean isEmpty() {
        return !any;
    }

    /** Devices with migrations, by id. */
    Map<Integer, Map<MigrationDirection, MigrationTotals>> devices() {
        return devices;
    }

    /** The device's name as its backend reported it, or "Device N". */
    String deviceName(int device) {
        return deviceNames.getOrDefault(device, "Device " + device);
    }

    long pageFaults() {
        return pageFaults;
    }

    long triggers(MigrationTrigger trigger) {
        return triggers.getOrDefault(trigger, 0L);
    }

    MigrationTotals totals(int device, MigrationDirection direction) {
        return devices.getOrDefault(device, Map.of()).getOrDefault(direction, new MigrationTotals());
    }
}
