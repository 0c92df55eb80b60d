package org.rocprofsys.unifiedmemory.kfd;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;
import org.rocprofsys.core.gpu.GpuEvent;
import org.rocprofsys.core.gpu.GpuPageFault;
import org.rocprofsys.core.gpu.GpuPageFault.FaultSide;
import org.rocprofsys.core.gpu.GpuPageMigration;
import org.rocprofsys.core.gpu.MigrationDirection;
import org.rocprofsys.core.gpu.MigrationTrigger;

/**
 * Turns KFD's start and end events into complete migrations and page faults of the target's
 * processes: a start is matched to its end on pid, address, size and nodes (migrations) or pid,
 * address and node (faults); pages become bytes; boot-time ns become the collector's
 * CLOCK_MONOTONIC ns. Migrations a GPU fault triggered while that fault was open form the fault's
 * group. What cannot be paired, other processes' events and the kernel's own drops are counted.
 */
public final class KfdPairing {
    static final int PAGE_SHIFT = 12;

    private final IntPredicate inTarget;
    private final IntUnaryOperator deviceOfNode;
    private final long bootToMonotonicNs;
    private final Consumer<GpuEvent> out;

    private final Map<MigrationKey, OpenMigration> migrations = new LinkedHashMap<>();
    private final Map<FaultKey, OpenFault> faults = new LinkedHashMap<>();
    /** The fault group of the fault each (pid, node) has open, for the migrations it causes. */
    private final Map<Long, Long> openFaultGroup = new HashMap<>();

    private long nextFaultGroup = 1;
    private long otherProcesses;
    private long kernelDropped;
    private long unmatchedEnds;
    private long failedMigrations;

    /**
     * @param inTarget          whether a pid belongs to the profiled process tree
     * @param deviceOfNode      the device index of a KFD GPU id (nonzero)
     * @param bootToMonotonicNs CLOCK_MONOTONIC minus CLOCK_BOOTTIME, added to every timestamp
     */
    public KfdPairing(
            IntPredicate inTarget, IntUnaryOperator deviceOfNode, long bootToMonotonicNs, Consumer<GpuEvent> out) {
        this.inTarget = inTarget;
        this.deviceOfNode = deviceOfNode;
        this.bootToMonotonicNs = bootToMonotonicNs;
        this.out = out;
    }

    public void accept(KfdEvent event) {
        if (event instanceof KfdEvent.Dropped d) {
            kernelDropped += d.count();
            return;
        }
        if (!inTarget.test(event.pid())) {
            otherProcesses++;
            return;
        }
        switch (event) {
            case KfdEvent.MigrateStart s -> {
                long group = s.trigger() == 1 ? openFaultGroup.getOrDefault(nodeKey(s.pid(), s.toNode()), 0L) : 0L;
                migrations.put(
                        new MigrationKey(s.pid(), s.startPage(), s.pages(), s.fromNode(), s.toNode()),
                        new OpenMigration(s, group));
            }
            case KfdEvent.MigrateEnd e -> migrationEnd(e);
            case KfdEvent.PageFaultStart s -> {
                long group = nextFaultGroup++;
                faults.put(new FaultKey(s.pid(), s.page(), s.node()), new OpenFault(s, group));
                openFaultGroup.put(nodeKey(s.pid(), s.node()), group);
            }
            case KfdEvent.PageFaultEnd e -> faultEnd(e);
            case KfdEvent.QueueEviction q -> {
                // queue evictions and restores, unmaps: not part of the unified-memory report
            }
            case KfdEvent.QueueRestore q -> {}
            case KfdEvent.UnmapFromGpu u -> {}
            case KfdEvent.Dropped d -> throw new AssertionError("handled above");
        }
    }

    private void migrationEnd(KfdEvent.MigrateEnd e) {
        OpenMigration open =
                migrations.remove(new MigrationKey(e.pid(), e.startPage(), e.pages(), e.fromNode(), e.toNode()));
        if (open == null) {
            unmatchedEnds++;
            return;
        }
        if (e.errorCode() != 0) {
            failedMigrations++;
            return;
        }
        KfdEvent.MigrateStart s = open.start();
        MigrationDirection direction;
        int node;
        if (s.fromNode() == 0) {
            direction = MigrationDirection.HOST_TO_DEVICE;
            node = s.toNode();
        } else if (s.toNode() == 0) {
            direction = MigrationDirection.DEVICE_TO_HOST;
            node = s.fromNode();
        } else {
            direction = MigrationDirection.DEVICE_TO_DEVICE;
            node = s.toNode();
        }
        int device = deviceOfNode.applyAsInt(node);
        long begin = s.timestampNs() + bootToMonotonicNs;
        long end = e.timestampNs() + bootToMonotonicNs;
        MigrationTrigger trigger = trigger(s.trigger());
        out.accept(new GpuPageMigration(
                s.pid(),
                device,
                begin,
                end,
                direction,
                s.startPage() << PAGE_SHIFT,
                s.pages() << PAGE_SHIFT,
                trigger,
                open.faultGroup()));
        if (trigger == MigrationTrigger.CPU_PAGE_FAULT) {
            // KFD reports CPU faults only through the migrations they cause
            out.accept(new GpuPageFault(
                    s.pid(), device, begin, end, FaultSide.CPU, s.startPage() << PAGE_SHIFT, false, true, 1));
        }
    }

    private void faultEnd(KfdEvent.PageFaultEnd e) {
        OpenFault open = faults.remove(new FaultKey(e.pid(), e.page(), e.node()));
        if (open == null) {
            unmatchedEnds++;
            return;
        }
        openFaultGroup.remove(nodeKey(e.pid(), e.node()), open.group());
        emitFault(open.start(), e.timestampNs(), e.migrated());
    }

    private void emitFault(KfdEvent.PageFaultStart s, long endBootNs, boolean migrated) {
        out.accept(new GpuPageFault(
                s.pid(),
                deviceOfNode.applyAsInt(s.node()),
                s.timestampNs() + bootToMonotonicNs,
                endBootNs + bootToMonotonicNs,
                FaultSide.GPU,
                s.page() << PAGE_SHIFT,
                s.write(),
                migrated,
                1));
    }

    /**
     * At the end of the run: a fault that never ended was still a fault (emitted with no
     * duration); a migration that never ended is counted, not reported, since its pages may not
     * have moved.
     */
    public Counts finish() {
        for (OpenFault f : faults.values()) {
            emitFault(f.start(), f.start().timestampNs(), false);
        }
        long unmatchedStarts = migrations.size() + faults.size();
        migrations.clear();
        faults.clear();
        openFaultGroup.clear();
        return new Counts(otherProcesses, kernelDropped, unmatchedStarts, unmatchedEnds, failedMigrations);
    }

    static MigrationTrigger trigger(int kfdTrigger) {
        return switch (kfdTrigger) {
            case 0 -> MigrationTrigger.PREFETCH;
            case 1 -> MigrationTrigger.GPU_PAGE_FAULT;
            case 2 -> MigrationTrigger.CPU_PAGE_FAULT;
            case 3 -> MigrationTrigger.TTM_EVICTION;
            default -> MigrationTrigger.UNKNOWN;
        };
    }

    private static long nodeKey(int pid, int node) {
        return ((long) pid << 32) | (node & 0xffffffffL);
    }

    /**
     * What the pairing could not use.
     *
     * @param otherProcesses   events of processes outside the target's tree (ignored)
     * @param kernelDropped    events the kernel's FIFO dropped (its DROPPED_EVENT lines)
     * @param unmatchedStarts  starts without an end at the end of the run
     * @param unmatchedEnds    ends without a start (their start came before we listened, or was
     *                         dropped)
     * @param failedMigrations migrations that ended with an error code
     */
    public record Counts(
            long otherProcesses, long kernelDropped, long unmatchedStarts, long unmatchedEnds, long failedMigrations) {}

    private record MigrationKey(int pid, long startPage, long pages, int from, int to) {}

    private record OpenMigration(KfdEvent.MigrateStart start, long faultGroup) {}

    private record FaultKey(int pid, long page, int node) {}

    private record OpenFault(KfdEvent.PageFaultStart start, long group) {}
}
