package org.rocprofsys.cuda.decode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.rocprofsys.core.gpu.GpuCounterSample;
import org.rocprofsys.core.gpu.GpuEvent;
import org.rocprofsys.core.gpu.GpuKernel;

/**
 * Joins the injection library's counter records (CUDA_COUNTERS, one per kernel) to the kernels
 * CUPTI's activity records describe, by the launch's correlation id, and emits one
 * {@link GpuCounterSample} per kernel and metric with the kernel's name and interval. The two
 * arrive in either order (counters when a batch of ranges is collected, kernels when an activity
 * buffer is flushed), so whichever comes first waits for the other. Kernels are kept only once a
 * context has set up counters. At the end, counters whose kernel never came (kernel tracing off,
 * or the range matched no launch) are emitted at their launch time under the name
 * {@link #UNKNOWN_KERNEL}.
 *
 * <p>Kernels are kept only while counters are collected; a kernel whose counters came first is
 * emitted (and dropped from here) as soon as it arrives.
 */
final class KernelCounters {
    static final String UNKNOWN_KERNEL = "<unknown kernel>";
    /** CUPTI's kernel duration metric (ns): the time of kernels CUPTI gave none while counting. */
    static final String DURATION = "gpu__time_duration.sum";

    private final int pid;
    private final Consumer<GpuEvent> out;
    private final Map<Integer, List<String>> metrics = new HashMap<>();
    private final Map<Long, CudaWireRecord.Counters> waitingForKernel = new HashMap<>();
    private final List<CudaWireRecord.Counters> unmatched = new ArrayList<>();
    private final Map<Long, GpuKernel> waitingForCounters = new HashMap<>();

    KernelCounters(int pid, Consumer<GpuEvent> out) {
        this.pid = pid;
        this.out = out;
    }

    void names(CudaWireRecord.CounterNames n) {
        metrics.put(n.device(), n.metrics());
    }

    void values(CudaWireRecord.Counters c) {
        if (!c.matched()) {
            unmatched.add(c);
            return;
        }
        GpuKernel k = waitingForCounters.remove(c.correlationId());
        if (k != null) {
            if (k.beginNs() == 0 && k.endNs() == 0) {
                k = timed(k, c);
                out.accept(k);
            }
            emit(c, k.name(), k.device(), k.beginNs(), k.endNs());
        } else {
            waitingForKernel.put(c.correlationId(), c);
        }
    }

    /**
     * Takes a decoded kernel: joins it to its counters, and keeps it when CUPTI gave it no times
     * (what CUPTI does while its range profiler collects, H100 with CUDA 13.0: start and end 0).
     * Such a kernel is emitted with its counters, placed at its launch ({@link #timed}).
     *
     * @return whether this class emits the kernel (else the caller does, now)
     */
    boolean holds(GpuKernel k) {
        if (metrics.isEmpty()) {
            return false;
        }
        boolean untimed = k.beginNs() == 0 && k.endNs() == 0;
        CudaWireRecord.Counters c = waitingForKernel.remove(k.correlationId());
        if (c == null) {
            waitingForCounters.put(k.correlationId(), k);
            return untimed;
        }
        GpuKernel placed = untimed ? timed(k, c) : k;
        if (untimed) {
            out.accept(placed);
        }
        emit(c, placed.name(), placed.device(), placed.beginNs(), placed.endNs());
        return untimed;
    }

    /**
     * An untimed kernel placed at its launch (the launch callback's time), lasting the
     * {@code gpu__time_duration.sum} CUPTI measured when that metric was collected, else no time.
     */
    private GpuKernel timed(GpuKernel k, CudaWireRecord.Counters c) {
        List<String> names = metrics.getOrDefault(c.device(), List.of());
        int at = names.indexOf(DURATION);
        long duration = at >= 0 && at < c.values().length ? Math.round(c.values()[at]) : 0;
        return new GpuKernel(
                k.pid(),
                k.device(),
                k.stream(),
                k.correlationId(),
                c.launchNs(),
                c.launchNs() + Math.max(0, duration),
                k.name(),
                k.mangledName(),
                k.grid(),
                k.block(),
                k.staticSharedBytes(),
                k.dynamicSharedBytes(),
                k.registersPerThread(),
                k.domain(),
                k.placement());
    }

    void finish() {
        List<CudaWireRecord.Counters> left = new ArrayList<>(waitingForKernel.values());
        left.addAll(unmatched);
        left.sort(java.util.Comparator.comparingLong(CudaWireRecord.Counters::launchNs));
        for (CudaWireRecord.Counters c : left) {
            emit(c, UNKNOWN_KERNEL, c.device(), c.launchNs(), c.launchNs());
        }
        // kept untimed kernels whose counters never came: emitted as CUPTI gave them
        waitingForCounters.values().stream()
                .filter(k -> k.beginNs() == 0 && k.endNs() == 0)
                .sorted(java.util.Comparator.comparingLong(GpuKernel::correlationId))
                .forEach(out);
        waitingForKernel.clear();
        unmatched.clear();
        waitingForCounters.clear();
    }

    private void emit(CudaWireRecord.Counters c, String kernel, int device, long beginNs, long endNs) {
        List<String> names = metrics.getOrDefault(c.device(), List.of());
        for (int i = 0; i < c.values().length && i < names.size(); i++) {
            out.accept(new GpuCounterSample(
                    pid,
                    device,
                    c.correlationId(),
                    c.range() + 1L,
                    kernel,
                    names.get(i),
                    c.values()[i],
                    beginNs,
                    endNs));
        }
    }
}
