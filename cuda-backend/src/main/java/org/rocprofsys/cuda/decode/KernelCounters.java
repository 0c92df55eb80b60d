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
 */
final class KernelCounters {
    static final String UNKNOWN_KERNEL = "<unknown kernel>";

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
            emit(c, k.name(), k.device(), k.beginNs(), k.endNs());
        } else {
            waitingForKernel.put(c.correlationId(), c);
        }
    }

    void kernel(GpuKernel k) {
        if (metrics.isEmpty()) {
            return;
        }
        CudaWireRecord.Counters c = waitingForKernel.remove(k.correlationId());
        if (c != null) {
            emit(c, k.name(), k.device(), k.beginNs(), k.endNs());
        } else {
            waitingForCounters.put(k.correlationId(), k);
        }
    }

    void finish() {
        List<CudaWireRecord.Counters> left = new ArrayList<>(waitingForKernel.values());
        left.addAll(unmatched);
        left.sort(java.util.Comparator.comparingLong(CudaWireRecord.Counters::launchNs));
        for (CudaWireRecord.Counters c : left) {
            emit(c, UNKNOWN_KERNEL, c.device(), c.launchNs(), c.launchNs());
        }
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
