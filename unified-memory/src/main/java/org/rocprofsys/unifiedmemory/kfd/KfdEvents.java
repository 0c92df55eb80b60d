package org.rocprofsys.unifiedmemory.kfd;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.rocprofsys.config.proc.ProcFs;
import org.rocprofsys.core.event.GpuActivity;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.gpu.GpuDevice;
import org.rocprofsys.core.spi.EventSource;
import org.rocprofsys.ffm.LibC;

/**
 * AMD unified-memory events, read by the collector (never inside the target): KFD's SMI event
 * descriptors of every GPU, their lines parsed ({@link KfdEventParser}) and paired
 * ({@link KfdPairing}) into page migrations and faults of the target's process tree. Without
 * {@code /dev/kfd}, or without the right to see another process's events, one notice and nothing
 * else.
 */
public final class KfdEvents implements EventSource {
    /** CAP_SYS_ADMIN's bit in /proc/self/status CapEff. */
    private static final int CAP_SYS_ADMIN = 21;

    private final PrintStream log;
    private final Path kfdDevice;
    private final Path topology;
    private KfdEventReader reader;
    private KfdSmiEvents.Opened opened;
    private KfdPairing pairing;
    private long malformed;
    private String firstMalformed;

    public KfdEvents(PrintStream log) {
        this(log, Path.of(KfdSmiEvents.DEVICE), KfdTopology.SYSTEM);
    }

    KfdEvents(PrintStream log, Path kfdDevice, Path topology) {
        this.log = log;
        this.kfdDevice = kfdDevice;
        this.topology = topology;
    }

    @Override
    public void start(int targetPid, Consumer<TraceEvent> out) {
        if (!Files.exists(kfdDevice)) {
            notice(kfdDevice + " is absent (no AMD GPU driver): no KFD page-fault or migration events");
            return;
        }
        if (!hasSysAdmin()) {
            notice("reading another process's KFD events needs CAP_SYS_ADMIN (run as root): "
                    + "no KFD page-fault or migration events");
            return;
        }
        List<KfdTopology.Gpu> gpus;
        try {
            gpus = KfdTopology.gpus(topology);
            if (gpus.isEmpty()) {
                notice("KFD lists no GPU under " + topology + ": no KFD page-fault or migration events");
                return;
            }
            opened = KfdSmiEvents.open(gpus);
        } catch (IOException e) {
            notice(e.getMessage() + ": no KFD page-fault or migration events");
            return;
        }
        Map<Integer, Integer> deviceOfGpuId = new HashMap<>();
        long now = System.nanoTime();
        for (KfdTopology.Gpu gpu : gpus) {
            deviceOfGpuId.put(gpu.gpuId(), gpu.node());
            out.accept(new GpuActivity(
                    new GpuDevice(targetPid, now, gpu.node(), "AMD", gpu.name(), "", 0, 0, gpu.name())));
        }
        pairing = new KfdPairing(
                new ProcessTree(targetPid, ProcFs.system()),
                node -> deviceOfGpuId.getOrDefault(node, node),
                monotonicMinusBoottime(),
                e -> out.accept(new GpuActivity(e)));
        reader = new KfdEventReader(opened.eventFds(), line -> accept(line));
        reader.start();
    }

    /** On the reader's thread only (the pairing is not shared). */
    private void accept(String line) {
        try {
            KfdEventParser.parse(line).ifPresent(pairing::accept);
        } catch (IllegalArgumentException e) {
            if (malformed++ == 0) {
                firstMalformed = e.getMessage();
            }
        }
    }

    @Override
    public void stop(long timestampNs) {
        if (reader == null) {
            return;
        }
        try {
            reader.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        opened.close();
        KfdPairing.Counts counts = pairing.finish();
        if (counts.kernelDropped() > 0 || counts.unmatchedStarts() > 0 || counts.unmatchedEnds() > 0) {
            notice("KFD events lost: " + counts.kernelDropped() + " dropped by the kernel, " + counts.unmatchedStarts()
                    + " starts and " + counts.unmatchedEnds() + " ends without their pair");
        }
        if (malformed > 0) {
            notice(malformed + " KFD event line(s) in no known format, the first: " + firstMalformed);
        }
    }

    private void notice(String text) {
        log.println("[rocprof-sys] unified-memory profiling: " + text);
    }

    private static boolean hasSysAdmin() {
        return ProcFs.system()
                .read("self/status")
                .map(org.rocprofsys.config.proc.StatusFields::parse)
                .flatMap(s -> java.util.Optional.ofNullable(s.fields().get("CapEff")))
                .map(hex -> (Long.parseUnsignedLong(hex.strip(), 16) >>> CAP_SYS_ADMIN & 1) == 1)
                .orElse(false);
    }

    /** The offset that puts KFD's boot-time stamps on CLOCK_MONOTONIC, read in the narrowest of a few tries. */
    static long monotonicMinusBoottime() {
        long best = Long.MAX_VALUE;
        long offset = 0;
        for (int i = 0; i < 5; i++) {
            long m0 = LibC.clockNanos(LibC.CLOCK_MONOTONIC);
            long b = LibC.clockNanos(LibC.CLOCK_BOOTTIME);
            long m1 = LibC.clockNanos(LibC.CLOCK_MONOTONIC);
            if (m1 - m0 < best) {
                best = m1 - m0;
                offset = (m0 + (m1 - m0) / 2) - b;
            }
        }
        return offset;
    }
}
