package org.rocprofsys.sampler.perf;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.rocprofsys.config.proc.ProcFs;
import org.rocprofsys.ffm.LibC;

/**
 * perf_event_open sampling of one target and everything it starts: one event per online CPU
 * ({@code pid = target, cpu = i}) with inherit, so every thread and forked child is followed
 * (the kernel refuses to mmap an inherited per-task event opened with {@code cpu = -1}), each
 * with its own ring of 1 + 2^n pages. Inherited child events write into their parent event's
 * ring, so the per-CPU rings see every descendant.
 *
 * <p>Two ways in: {@link #openOnExec} for the launch flow (the events are opened, disabled, on a
 * shim that waits and then execs the target; the kernel enables them at execve, so they are
 * live before the target's first instruction), and {@link #open} + {@link #enable()} to attach.
 *
 * <p>Draining ({@link #drain}) and {@link #await} belong to one thread.
 */
public final class PerfEvents implements AutoCloseable {
    /** PERF_FLAG_FD_CLOEXEC. */
    static final long PERF_FLAG_FD_CLOEXEC = 8;
    /** _IO('$', n). */
    static final long PERF_EVENT_IOC_ENABLE = 0x2400;

    static final long PERF_EVENT_IOC_DISABLE = 0x2401;
    /** _IOR('$', 7, u64 *): the event's id, as PERF_FORMAT_ID reports it. */
    static final long PERF_EVENT_IOC_ID = 0x80082407L;

    private static final String PARANOID = "kernel/perf_event_paranoid";

    /**
     * One CPU's event: its fd, its mapping and the reader of its ring, and the fds of its group's
     * counting members (which write into the leader's samples, not into rings of their own).
     */
    public record Ring(int cpu, int fd, MemorySegment mapping, PerfRingReader reader, int[] memberFds) {}

    private final Arena arena;
    private final PerfEventAttr attr;
    private final List<Ring> rings;
    private final int[] fds;
    /** Member index (in the order opened) by event id, over every CPU's group. */
    private final Map<Long, Integer> memberById;

    private boolean closed;

    private PerfEvents(Arena arena, PerfEventAttr attr, List<Ring> rings, Map<Long, Integer> memberById) {
        this.arena = arena;
        this.attr = attr;
        this.rings = Collections.unmodifiableList(rings);
        this.fds = rings.stream().mapToInt(Ring::fd).toArray();
        this.memberById = Map.copyOf(memberById);
    }

    /** Creates the FFM handles now (15-20 ms for the variadic ones) so opening after a spawn is fast. */
    public static void warmUp() {
        LibC.warmUp();
    }

    /**
     * The launch flow: opens {@code attr} made disabled + enable_on_exec on {@code pid} (a shim
     * waiting to exec the target).
     */
    public static PerfEvents openOnExec(int pid, PerfEventAttr attr, int ringPagesLog2) throws PerfException {
        return open(pid, attr.enableOnExec(), List.of(), ringPagesLog2);
    }

    /** {@link #openOnExec(int, PerfEventAttr, int)} with counting members (see {@link #open(int, PerfEventAttr, List, int)}). */
    public static PerfEvents openOnExec(int pid, PerfEventAttr attr, List<PerfEventAttr> members, int ringPagesLog2)
            throws PerfException {
        return open(pid, attr.enableOnExec(), members, ringPagesLog2);
    }

    public static PerfEvents open(int pid, PerfEventAttr attr, int ringPagesLog2) throws PerfException {
        return open(pid, attr, List.of(), ringPagesLog2);
    }

    /**
     * Opens {@code attr} for {@code pid} on every online CPU and maps a ring of 1 + 2^log2 pages
     * for each. Whether the events start disabled is up to {@code attr} ({@link #enable()}). With
     * {@code members}, each CPU's event leads a group of those counting events and its samples
     * carry the group's counts ({@link PerfEventAttr#withGroupRead}; {@link #member} tells which
     * count is which).
     *
     * @throws PerfUnavailableException perf_event_open is refused here or the event does not exist
     * @throws PerfException            any other failure (no such process, too many open files, ...)
     */
    public static PerfEvents open(int pid, PerfEventAttr leader, List<PerfEventAttr> members, int ringPagesLog2)
            throws PerfException {
        PerfEventAttr attr = members.isEmpty() ? leader : leader.withGroupRead();
        if (ringPagesLog2 < 0 || ringPagesLog2 > 16) {
            throw new IllegalArgumentException("ring pages log2 out of range: " + ringPagesLog2);
        }
        if (LibC.SYS_PERF_EVENT_OPEN < 0) {
            throw new PerfUnavailableException(
                    PerfUnavailableException.Reason.NO_SYSCALL,
                    "perf_event_open: no syscall number known for architecture " + System.getProperty("os.arch"),
                    LibC.ENOSYS);
        }
        List<Integer> cpus = onlineCpus();
        Arena arena = Arena.ofShared();
        List<Ring> rings = new ArrayList<>();
        List<Integer> opened = new ArrayList<>();
        Map<Long, Integer> memberById = new HashMap<>();
        long length = (long) LibC.pageSize() * (1 + (1L << ringPagesLog2));
        try {
            MemorySegment id = arena.allocate(8, 8);
            for (int cpu : cpus) {
                int[] group = openGroup(arena, attr, members, pid, cpu, opened);
                int fd = group[0];
                int[] memberFds = Arrays.copyOfRange(group, 1, group.length);
                for (int i = 0; i < memberFds.length; i++) {
                    memberById.put(eventId(memberFds[i], id), i);
                }
                LibC.Result m = LibC.mmapShared(fd, length);
                if (m.value() == LibC.MAP_FAILED) {
                    throw mmapFailure(m.errno(), length);
                }
                MemorySegment mapping =
                        MemorySegment.ofAddress(m.value()).reinterpret(length, arena, seg -> LibC.munmap(seg, length));
                rings.add(new Ring(cpu, fd, mapping, new PerfRingReader(mapping, attr, LibC.pageSize()), memberFds));
            }
            return new PerfEvents(arena, attr, rings, memberById);
        } catch (PerfException | RuntimeException e) {
            for (int fd : opened) {
                LibC.close(fd);
            }
            arena.close();
            throw e;
        }
    }

    /**
     * Opens {@code leader} and then each of {@code members} in its group ({@link
     * PerfEventAttr#asMemberOf}) for {@code pid} on {@code cpu}: the fds, leader first. Each fd
     * opened is added to {@code opened}, which the caller closes.
     */
    private static int[] openGroup(
            Arena arena, PerfEventAttr leader, List<PerfEventAttr> members, int pid, int cpu, List<Integer> opened)
            throws PerfException {
        int[] fds = new int[1 + members.size()];
        for (int i = 0; i < fds.length; i++) {
            PerfEventAttr a = i == 0 ? leader : members.get(i - 1).asMemberOf(leader);
            LibC.Result r =
                    LibC.perfEventOpen(a.toSegment(arena), pid, cpu, i == 0 ? -1 : fds[0], PERF_FLAG_FD_CLOEXEC);
            if (r.value() < 0) {
                throw openFailure(r.errno(), a, pid, cpu);
            }
            fds[i] = (int) r.value();
            opened.add(fds[i]);
        }
        return fds;
    }

    /** The id the kernel gives {@code fd}'s event in PERF_FORMAT_ID (PERF_EVENT_IOC_ID). */
    private static long eventId(int fd, MemorySegment scratch) throws PerfException {
        LibC.Result r = LibC.ioctl(fd, PERF_EVENT_IOC_ID, scratch.address());
        if (r.value() < 0) {
            throw new PerfException("PERF_EVENT_IOC_ID: " + LibC.strerror(r.errno()), r.errno());
        }
        return scratch.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0);
    }

    /**
     * Which of the members given to {@link #open(int, PerfEventAttr, List, int)} a count of a
     * sample's {@link PerfRecord.Counts} is, by its id (an inherited event reports its parent's);
     * -1 for the leader or an id not opened here.
     */
    public int member(long id) {
        return memberById.getOrDefault(id, -1);
    }

    /**
     * Whether {@code attr} can be opened here at all: opens it (disabled) on this process, any CPU,
     * and closes it again. Refusals that hold for every process (perf_event_paranoid, a seccomp
     * filter, no such event) show up here, before a target is launched.
     *
     * @throws PerfException the reason, as {@link #open} would report it
     */
    public static void probe(PerfEventAttr attr) throws PerfException {
        probe(attr, List.of());
    }

    /**
     * Whether {@code leader} with {@code members} in its group ({@link #open(int, PerfEventAttr,
     * List, int)}) can be opened here: opens the group (disabled) on this process and closes it.
     */
    public static void probe(PerfEventAttr leader, List<PerfEventAttr> members) throws PerfException {
        if (LibC.SYS_PERF_EVENT_OPEN < 0) {
            throw new PerfUnavailableException(
                    PerfUnavailableException.Reason.NO_SYSCALL,
                    "perf_event_open: no syscall number known for architecture " + System.getProperty("os.arch"),
                    LibC.ENOSYS);
        }
        PerfEventAttr attr =
                (members.isEmpty() ? leader : leader.withGroupRead()).withFlags(PerfEventAttr.FLAG_DISABLED);
        List<Integer> opened = new ArrayList<>();
        try (Arena arena = Arena.ofConfined()) {
            openGroup(arena, attr, members, 0, -1, opened);
        } finally {
            for (int fd : opened) {
                LibC.close(fd);
            }
        }
    }

    /** A short form of a failure's cause: the errno name and perf_event_paranoid. */
    public static String shortReason(PerfException e) {
        return (e.errno() != 0 ? LibC.errnoName(e.errno()) + ", " : "") + "kernel.perf_event_paranoid=" + paranoid();
    }

    public PerfEventAttr attr() {
        return attr;
    }

    public List<Ring> rings() {
        return rings;
    }

    public void enable() throws PerfException {
        ioctlAll(PERF_EVENT_IOC_ENABLE, "PERF_EVENT_IOC_ENABLE");
    }

    public void disable() throws PerfException {
        ioctlAll(PERF_EVENT_IOC_DISABLE, "PERF_EVENT_IOC_DISABLE");
    }

    private void ioctlAll(long request, String name) throws PerfException {
        checkOpen();
        for (Ring ring : rings) {
            LibC.Result r = LibC.ioctl(ring.fd(), request, 0);
            if (r.value() < 0) {
                throw new PerfException(name + " on cpu " + ring.cpu() + ": " + LibC.strerror(r.errno()), r.errno());
            }
        }
    }

    /**
     * Waits until a ring has reached its wakeup threshold (attr.wakeup_events), the target's
     * events hang up, or {@code timeoutMs} passes.
     *
     * @return true when a ring was reported readable
     */
    public boolean await(int timeoutMs) {
        checkOpen();
        return LibC.pollIn(fds, timeoutMs) > 0;
    }

    /** {@link #await}, also ended by {@code wakeFd} becoming readable. */
    public boolean await(int timeoutMs, int wakeFd) {
        checkOpen();
        int[] all = Arrays.copyOf(fds, fds.length + 1);
        all[fds.length] = wakeFd;
        return LibC.pollIn(all, timeoutMs) > 0;
    }

    /**
     * Drains every ring once, CPU by CPU. Records of different rings are not merged: a consumer
     * needing global order sorts a batch by {@link PerfRecord#time()}.
     *
     * @return the number of records handed out
     */
    public int drain(Consumer<? super PerfRecord> out) {
        checkOpen();
        int n = 0;
        for (Ring ring : rings) {
            n += ring.reader().drain(out);
        }
        return n;
    }

    /** The bytes one ring had pending, copied by {@link #copyPending}. */
    public record Copy(int ring, MemorySegment bytes) {}

    /**
     * Copies what every ring has pending into {@code into} and hands the space back to the kernel,
     * CPU by CPU, without decoding (see {@link #decode}); empty when nothing was pending.
     */
    public List<Copy> copyPending(RingCopies into) {
        checkOpen();
        List<Copy> copies = new ArrayList<>();
        for (int i = 0; i < rings.size(); i++) {
            MemorySegment b = rings.get(i).reader().copyPending(into::room);
            if (b.byteSize() > 0) {
                copies.add(new Copy(i, b));
            }
        }
        return copies;
    }

    /**
     * Decodes copies made by {@link #copyPending} in order, as {@link #drain} would have (one
     * thread at a time; may be another than the copying one).
     *
     * @return the number of records handed out
     */
    public int decode(List<Copy> copies, Consumer<? super PerfRecord> out) {
        int n = 0;
        for (Copy c : copies) {
            n += rings.get(c.ring()).reader().decodeCopy(c.bytes(), out);
        }
        return n;
    }

    /** The largest copy {@link #copyPending} can make: one ring's data area. */
    public long ringDataBytes() {
        return rings.isEmpty() ? 0 : rings.getFirst().reader().dataBytes();
    }

    /** Records the kernel dropped (ring full, or before the ring), over all rings so far. */
    public long lostRecords() {
        return rings.stream().mapToLong(r -> r.reader().lostRecords()).sum();
    }

    public long samples() {
        return rings.stream().mapToLong(r -> r.reader().samples()).sum();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("perf events closed");
        }
    }

    /** Unmaps the rings and closes the fds (the events end with them). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Ring ring : rings) {
            for (int fd : ring.memberFds()) {
                LibC.close(fd);
            }
            LibC.close(ring.fd());
        }
        arena.close();
    }

    /** The CPUs of /sys/devices/system/cpu/online ("0-3,8,10-11"). */
    static List<Integer> onlineCpus() {
        try {
            return parseCpuList(
                    Files.readString(Path.of("/sys/devices/system/cpu/online")).trim());
        } catch (IOException e) {
            List<Integer> all = new ArrayList<>();
            for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
                all.add(i);
            }
            return all;
        }
    }

    static List<Integer> parseCpuList(String s) {
        List<Integer> out = new ArrayList<>();
        for (String part : s.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            int dash = part.indexOf('-');
            if (dash < 0) {
                out.add(Integer.parseInt(part.trim()));
            } else {
                int lo = Integer.parseInt(part.substring(0, dash).trim());
                int hi = Integer.parseInt(part.substring(dash + 1).trim());
                for (int i = lo; i <= hi; i++) {
                    out.add(i);
                }
            }
        }
        return out;
    }

    /** perf_event_paranoid's value as text, or "unknown". */
    static String paranoid() {
        return ProcFs.system().sysctl(PARANOID).orElse("unknown (/proc/sys/" + PARANOID + " unreadable)");
    }

    static PerfException openFailure(int errno, PerfEventAttr attr, int pid, int cpu) {
        String what = "perf_event_open(" + eventName(attr) + ", pid " + pid + ", cpu " + cpu + ") failed: "
                + LibC.errnoName(errno) + " (" + LibC.strerror(errno) + ")";
        return switch (errno) {
            case LibC.EACCES, LibC.EPERM ->
                new PerfUnavailableException(
                        PerfUnavailableException.Reason.PERMISSION,
                        what + ". kernel.perf_event_paranoid is " + paranoid()
                                + "; sampling another process needs perf_event_paranoid <= 2 for user-space samples"
                                + (attr.has(PerfEventAttr.FLAG_EXCLUDE_KERNEL) ? "" : " and <= 1 for kernel samples")
                                + " (or CAP_PERFMON / root). Fix: sudo sysctl -w kernel.perf_event_paranoid=1"
                                + " (or run with CAP_PERFMON). In a container, the seccomp profile may also block"
                                + " perf_event_open (docker: --security-opt seccomp=unconfined or --cap-add PERFMON).",
                        errno);
            case LibC.ENOENT, LibC.ENODEV, LibC.EOPNOTSUPP ->
                new PerfUnavailableException(
                        PerfUnavailableException.Reason.NO_SUCH_EVENT,
                        what + ". The " + eventName(attr) + " event does not exist here"
                                + (attr.type() == PerfEventAttr.TYPE_HARDWARE
                                        ? " (no hardware PMU: /sys/bus/event_source/devices has no cpu PMU, common in"
                                                + " virtual machines); use a software event (cpu-clock, task-clock)"
                                        : ""),
                        errno);
            case LibC.ENOSYS ->
                new PerfUnavailableException(
                        PerfUnavailableException.Reason.NO_SYSCALL,
                        what + ". This kernel was built without perf events (CONFIG_PERF_EVENTS).",
                        errno);
            case LibC.ESRCH -> new PerfException(what + ". No such process: the target ended already?", errno);
            case LibC.EMFILE ->
                new PerfException(
                        what + ". Too many open files: one event per CPU is needed;" + " raise the limit (ulimit -n).",
                        errno);
            case LibC.EINVAL ->
                attr.has(PerfEventAttr.FLAG_INHERIT) && attr.samples(PerfEventAttr.SAMPLE_READ)
                        ? new PerfUnavailableException(
                                PerfUnavailableException.Reason.NO_SAMPLE_READ,
                                what + ". This kernel (Linux " + System.getProperty("os.version") + ") does not put"
                                        + " counter values in the samples of inherited events (PERF_SAMPLE_READ with"
                                        + " inherit needs Linux 6.12 or later)",
                                errno)
                        : new PerfException(
                                what + ". The kernel rejected the attributes (sample rate above"
                                        + " kernel.perf_event_max_sample_rate, or an attribute this kernel does not"
                                        + " know).",
                                errno);
            default -> new PerfException(what, errno);
        };
    }

    static PerfException mmapFailure(int errno, long length) {
        String what = "mmap of a perf ring (" + length / 1024 + " KiB) failed: " + LibC.errnoName(errno) + " ("
                + LibC.strerror(errno) + ")";
        if (errno == LibC.EPERM || errno == LibC.EACCES) {
            return new PerfException(
                    what + ". The per-user locked-memory allowance for perf rings"
                            + " (kernel.perf_event_mlock_kb, plus RLIMIT_MEMLOCK) is used up: use smaller rings or raise it.",
                    errno);
        }
        return new PerfException(what, errno);
    }

    public static String eventName(PerfEventAttr attr) {
        if (attr.type() == PerfEventAttr.TYPE_SOFTWARE) {
            if (attr.config() == PerfEventAttr.SW_CPU_CLOCK) {
                return "cpu-clock";
            }
            if (attr.config() == PerfEventAttr.SW_TASK_CLOCK) {
                return "task-clock";
            }
            return "software event " + attr.config();
        }
        if (attr.type() == PerfEventAttr.TYPE_HARDWARE) {
            return attr.config() == PerfEventAttr.HW_CPU_CYCLES
                    ? "cycles"
                    : attr.config() == PerfEventAttr.HW_INSTRUCTIONS
                            ? "instructions"
                            : "hardware event " + attr.config();
        }
        return "event type " + attr.type() + " config " + attr.config();
    }
}
