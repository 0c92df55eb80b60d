package org.rocprofsys.unifiedmemory.kfd;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.rocprofsys.ffm.LibC;

/**
 * Opens KFD's SMI event descriptors ({@code uapi/linux/kfd_ioctl.h}): per GPU,
 * {@code AMDKFD_IOC_SMI_EVENTS} on {@code /dev/kfd} returns an anonymous descriptor, and writing a
 * 64-bit mask to it selects the events ({@code KFD_SMI_EVENT_MASK_FROM_INDEX(i) = 1 << (i - 1)}).
 * Events of other processes (the target) reach only a CAP_SYS_ADMIN reader that sets
 * {@code KFD_SMI_EVENT_ALL_PROCESS}.
 */
public final class KfdSmiEvents {
    public static final String DEVICE = "/dev/kfd";
    /** {@code _IOWR('K', 0x1F, struct kfd_ioctl_smi_events_args {u32 gpuid; u32 anon_fd;})}. */
    static final long AMDKFD_IOC_SMI_EVENTS = (3L << 30) | (8L << 16) | ('K' << 8) | 0x1F;

    static final int ALL_PROCESS = 64;

    /** Migrations, page faults, queue evictions/restores, unmaps, drops, of every process. */
    static final long MASK = mask(
            KfdEventParser.MIGRATE_START,
            KfdEventParser.MIGRATE_END,
            KfdEventParser.PAGE_FAULT_START,
            KfdEventParser.PAGE_FAULT_END,
            KfdEventParser.QUEUE_EVICTION,
            KfdEventParser.QUEUE_RESTORE,
            KfdEventParser.UNMAP_FROM_GPU,
            KfdEventParser.DROPPED_EVENT,
            ALL_PROCESS);

    private KfdSmiEvents() {}

    static long mask(int... events) {
        long m = 0;
        for (int e : events) {
            m |= 1L << (e - 1);
        }
        return m;
    }

    /**
     * One event descriptor per GPU, events selected.
     *
     * @throws IOException naming the step and the error when KFD refuses
     */
    public static Opened open(List<KfdTopology.Gpu> gpus) throws IOException {
        LibC.Result kfd = LibC.openReadWrite(DEVICE);
        if (kfd.value() < 0) {
            throw new IOException("cannot open " + DEVICE + ": " + LibC.strerror(kfd.errno()));
        }
        int[] fds = new int[gpus.size()];
        int opened = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment args = arena.allocate(8, 4);
            MemorySegment mask = arena.allocate(ValueLayout.JAVA_LONG);
            mask.set(ValueLayout.JAVA_LONG, 0, MASK);
            for (KfdTopology.Gpu gpu : gpus) {
                args.set(ValueLayout.JAVA_INT, 0, gpu.gpuId());
                args.set(ValueLayout.JAVA_INT, 4, -1);
                LibC.Result r = LibC.ioctl((int) kfd.value(), AMDKFD_IOC_SMI_EVENTS, args.address());
                if (r.value() < 0) {
                    throw new IOException("AMDKFD_IOC_SMI_EVENTS for GPU " + gpu.node() + " (gpu_id " + gpu.gpuId()
                            + "): " + LibC.strerror(r.errno()));
                }
                int fd = args.get(ValueLayout.JAVA_INT, 4);
                fds[opened++] = fd;
                LibC.Result w = LibC.write(fd, mask);
                if (w.value() != 8) {
                    throw new IOException("cannot select KFD events of GPU " + gpu.node() + ": "
                            + (w.value() < 0 ? LibC.strerror(w.errno()) : "short write"));
                }
            }
        } catch (IOException e) {
            for (int i = 0; i < opened; i++) {
                LibC.close(fds[i]);
            }
            LibC.close((int) kfd.value());
            throw e;
        }
        return new Opened((int) kfd.value(), fds);
    }

    /**
     * The open descriptors: {@code /dev/kfd} stays open while its event descriptors are read (the
     * event clients belong to the opener's KFD process).
     */
    public record Opened(int kfd, int[] eventFds) implements AutoCloseable {
        @Override
        public void close() {
            LibC.close(kfd);
        }
    }
}
