package org.rocprofsys.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * The one libc binding of the project, through FFM: the sampler's perf calls, the symbolizer's
 * open/close/free, the exec gate's kill, the launch helper's posix_spawn and waitpid. {@code open}, {@code syscall} and {@code ioctl} are
 * variadic (java-stack.md gotcha 5); errno is captured in the call (a later Java call would
 * clobber it). Each function is bound on its first call, in a holder class of its own: binding
 * spins classes (5-20 ms each), which a run that needs a few of them should not pay for all;
 * {@link #warmUp()} binds the sampler's before a target is spawned.
 */
public final class LibC {
    private LibC() {}

    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int ESRCH = 3;
    public static final int EINTR = 4;
    public static final int E2BIG = 7;
    public static final int EACCES = 13;
    public static final int ENODEV = 19;
    public static final int EINVAL = 22;
    public static final int EMFILE = 24;
    public static final int ENOSYS = 38;
    public static final int EOPNOTSUPP = 95;

    public static final int PROT_READ = 1;
    public static final int PROT_WRITE = 2;
    public static final int MAP_SHARED = 1;
    public static final int MAP_PRIVATE = 2;
    public static final int MAP_ANONYMOUS = 0x20;
    public static final int MAP_POPULATE = 0x8000;
    public static final long MAP_FAILED = -1L;
    public static final short POLLIN = 1;

    public static final int O_RDONLY = 0;
    public static final int O_RDWR = 2;
    public static final int O_NONBLOCK = 0x800;
    public static final int O_CLOEXEC = 0x80000;
    public static final int EAGAIN = 11;
    public static final int CLOCK_MONOTONIC = 1;
    public static final int CLOCK_BOOTTIME = 7;
    public static final int SIGCONT = 18;

    public static final long SYS_PERF_EVENT_OPEN = switch (System.getProperty("os.arch")) {
        case "amd64", "x86_64" -> 298;
        case "aarch64", "arm64" -> 241;
        case "riscv64", "loongarch64" -> 241;
        case "ppc64le" -> 319;
        default -> -1;
    };

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIBC = LINKER.defaultLookup();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    // long syscall(long number, ...): perf_event_open(attr*, pid_t, int cpu, int group_fd, unsigned long flags)
    private static final class PerfEventOpen {
        static final MethodHandle H = LINKER.downcallHandle(
                find("syscall"),
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG),
                Linker.Option.firstVariadicArg(1),
                CAPTURE_ERRNO);
    }
    // int ioctl(int fd, unsigned long request, ...)
    private static final class Ioctl {
        static final MethodHandle H = LINKER.downcallHandle(
                find("ioctl"),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG),
                Linker.Option.firstVariadicArg(2),
                CAPTURE_ERRNO);
    }

    private static final class Mmap {
        static final MethodHandle H = LINKER.downcallHandle(
                find("mmap"),
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG),
                CAPTURE_ERRNO);
    }

    private static final class Munmap {
        static final MethodHandle H =
                LINKER.downcallHandle(find("munmap"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
    }

    private static final class Close {
        static final MethodHandle H = LINKER.downcallHandle(find("close"), FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    }
    // int poll(struct pollfd *fds, nfds_t nfds, int timeout)
    private static final class Poll {
        static final MethodHandle H = LINKER.downcallHandle(
                find("poll"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), CAPTURE_ERRNO);
    }
    /** open is variadic (mode): the fixed arguments are path and flags. */
    private static final class Open {
        static final MethodHandle H = LINKER.downcallHandle(
                find("open"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), Linker.Option.firstVariadicArg(2));
    }

    private static final class OpenErrno {
        static final MethodHandle H = LINKER.downcallHandle(
                find("open"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT),
                Linker.Option.firstVariadicArg(2),
                CAPTURE_ERRNO);
    }

    private static final class Read {
        static final MethodHandle H = LINKER.downcallHandle(
                find("read"), FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), CAPTURE_ERRNO);
    }

    private static final class Write {
        static final MethodHandle H = LINKER.downcallHandle(
                find("write"), FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), CAPTURE_ERRNO);
    }

    private static final class ClockGettime {
        static final MethodHandle H =
                LINKER.downcallHandle(find("clock_gettime"), FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
    }

    private static final class Pipe2 {
        static final MethodHandle H =
                LINKER.downcallHandle(find("pipe2"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), CAPTURE_ERRNO);
    }

    private static final class Free {
        static final MethodHandle H = LINKER.downcallHandle(find("free"), FunctionDescriptor.ofVoid(ADDRESS));
    }

    private static final class Kill {
        static final MethodHandle H =
                LINKER.downcallHandle(find("kill"), FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    }

    private static final class Mkdir {
        static final MethodHandle H =
                LINKER.downcallHandle(find("mkdir"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), CAPTURE_ERRNO);
    }

    // int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
    //                 const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
    private static final class PosixSpawn {
        static final MethodHandle H = LINKER.downcallHandle(
                find("posix_spawn"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    }
    // pid_t waitpid(pid_t pid, int *status, int options)
    private static final class Waitpid {
        static final MethodHandle H = LINKER.downcallHandle(
                find("waitpid"), FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT), CAPTURE_ERRNO);
    }

    private static final class Strerror {
        static final MethodHandle H = LINKER.downcallHandle(find("strerror"), FunctionDescriptor.of(ADDRESS, JAVA_INT));
    }

    private static final class GetPageSize {
        static final MethodHandle H = LINKER.downcallHandle(find("getpagesize"), FunctionDescriptor.of(JAVA_INT));
    }

    private static MemorySegment find(String name) {
        return LIBC.find(name).orElseThrow(() -> new UnsatisfiedLinkError("libc has no " + name));
    }

    /** The system's page size. */
    public static int pageSize() {
        return PageSize.VALUE;
    }

    private static final class PageSize {
        static final int VALUE;

        static {
            try {
                VALUE = (int) GetPageSize.H.invokeExact();
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }
    }

    /**
     * Binds the sampler's calls (perf_event_open, ioctl, mmap, munmap, poll, close) now, before a
     * target is spawned: each binding spins classes (the first variadic one 15-20 ms).
     */
    public static void warmUp() {
        bound(PerfEventOpen.H, Ioctl.H, Mmap.H, Munmap.H, Poll.H, Close.H);
        pageSize();
    }

    /**
     * Binds the session directory watch's calls (inotify_init1, inotify_add_watch, ppoll, pipe2,
     * read, close): 15-25 ms of spinning classes that a run's start otherwise spends on its main
     * thread, to be done on another while the command line is read.
     */
    public static void warmUpWatch() {
        bound(Waits.INOTIFY_INIT1, Waits.INOTIFY_ADD_WATCH, Waits.PPOLL, Pipe2.H, Read.H, Close.H);
    }

    /** Takes the handles: reading a holder's handle initialises the holder, which binds it. */
    private static void bound(MethodHandle... handles) {
        for (MethodHandle h : handles) {
            Objects.requireNonNull(h);
        }
    }

    /** A result and the errno captured with it (errno meaningful only on failure). */
    public record Result(long value, int errno) {}

    public static Result perfEventOpen(MemorySegment attr, int pid, int cpu, int groupFd, long flags) {
        if (SYS_PERF_EVENT_OPEN < 0) {
            return new Result(-1, ENOSYS);
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(CAPTURE);
            long r = (long) PerfEventOpen.H.invokeExact(state, SYS_PERF_EVENT_OPEN, attr, pid, cpu, groupFd, flags);
            return new Result(r, r < 0 ? (int) ERRNO.get(state, 0L) : 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static Result ioctl(int fd, long request, long arg) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(CAPTURE);
            int r = (int) Ioctl.H.invokeExact(state, fd, request, arg);
            return new Result(r, r < 0 ? (int) ERRNO.get(state, 0L) : 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** mmap(NULL, length, PROT_READ|PROT_WRITE, MAP_SHARED, fd, 0); value is the address or -1. */
    public static Result mmapShared(int fd, long length) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(CAPTURE);
            MemorySegment p = (MemorySegment)
                    Mmap.H.invokeExact(state, MemorySegment.NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0L);
            long addr = p.address();
            return new Result(addr, addr == MAP_FAILED ? (int) ERRNO.get(state, 0L) : 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * mmap(NULL, length, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0): zeroed pages
     * that the kernel supplies on first touch (no second zeroing, as Arena.allocate does); value is
     * the address or -1.
     */
    public static Result mmapAnonymous(long length) {
        return mmapAnonymous(length, false);
    }

    /** {@link #mmapAnonymous(long)}, with every page faulted in now when {@code populate} (MAP_POPULATE). */
    public static Result mmapAnonymous(long length, boolean populate) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(CAPTURE);
            int flags = MAP_PRIVATE | MAP_ANONYMOUS | (populate ? MAP_POPULATE : 0);
            MemorySegment p = (MemorySegment)
                    Mmap.H.invokeExact(state, MemorySegment.NULL, length, PROT_READ | PROT_WRITE, flags, -1, 0L);
            long addr = p.address();
            return new Result(addr, addr == MAP_FAILED ? (int) ERRNO.get(state, 0L) : 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int munmap(MemorySegment address, long length) {
        try {
            return (int) Munmap.H.invokeExact(address, length);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** open(path, O_RDONLY|O_CLOEXEC); -1 on failure. */
    public static int openRead(String path) {
        try (Arena a = Arena.ofConfined()) {
            return (int) Open.H.invokeExact(a.allocateFrom(path), O_RDONLY | O_CLOEXEC);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * open(path, O_RDONLY|O_CLOEXEC) of a path given as bytes (a name Java's charset cannot spell);
     * value is the fd or -1 with errno.
     */
    public static Result openRead(byte[] path) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(CAPTURE);
            int fd = (int) OpenErrno.H.invokeExact(state, cString(a, path), O_RDONLY | O_CLOEXEC);
            return new Result(fd, fd < 0 ? (int) ERRNO.get(state, 0L) : 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** mkdir(path, mode) of a path given as bytes; value 0, or -1 with errno (EEXIST when it is there). */
    public static Result mkdir(byte[] path, int mode) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(CAPTURE);
            int rc = (int) Mkdir.H.invokeExact(state, cString(a, path), mode);
            return new Result(rc, rc < 0 ? (int) ERRNO.get(state, 0L) : 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static final int EEXIST = 17;

    /** open(path, O_RDWR|O_CLOEXEC); value is the fd or -1 with errno. */
    public static Result openReadWrite(String path) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(CAPTURE);
            int fd = (int) OpenErrno.H.invokeExact(state, a.allocateFrom(path), O_RDWR | O_CLOEXEC);
            return new Result(fd, fd < 0 ? (int) ERRNO.get(state, 0L) : 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** read(2) into {@code buffer}; value is the byte count (0 at end of file) or -1 with errno. */
    public static Result read(int fd, MemorySegment buffer) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(CAPTURE);
            long n = (long) Read.H.invokeExact(state, fd, buffer, buffer.byteSize());
            return new Result(n, n < 0 ? (int) ERRNO.get(state, 0L) : 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** write(2) of all of {@code data} at once; value is the byte count or -1 with errno. */
    public static Result write(int fd, MemorySegment data) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(CAPTURE);
            long n = (long) Write.H.invokeExact(state, fd, data, data.byteSize());
            return new Result(n, n < 0 ? (int) ERRNO.get(state, 0L) : 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** clock_gettime(2) of {@code clockId} in ns. */
    public static long clockNanos(int clockId) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ts = a.allocate(JAVA_LONG, 2);
            int r = (int) ClockGettime.H.invokeExact(clockId, ts);
            if (r != 0) {
                throw new IllegalStateException("clock_gettime(" + clockId + ") failed");
            }
            return ts.getAtIndex(JAVA_LONG, 0) * 1_000_000_000L + ts.getAtIndex(JAVA_LONG, 1);
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** pipe2(O_NONBLOCK|O_CLOEXEC): {read end, write end}. */
    public static int[] pipeNonBlocking() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment fds = a.allocate(JAVA_INT, 2);
            MemorySegment state = a.allocate(CAPTURE);
            int r = (int) Pipe2.H.invokeExact(state, fds, O_NONBLOCK | O_CLOEXEC);
            if (r < 0) {
                throw new IllegalStateException("pipe2: " + strerror((int) ERRNO.get(state, 0L)));
            }
            return new int[] {fds.getAtIndex(JAVA_INT, 0), fds.getAtIndex(JAVA_INT, 1)};
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** free(3) of a buffer a native library malloc'd for the caller. */
    public static void free(MemorySegment p) {
        try {
            Free.H.invokeExact(p);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Bound on first use: only runs that lower a thread's priority pay for the downcall handle. */
    private static final class Priority {
        static final int PRIO_PROCESS = 0;
        // int setpriority(int which, id_t who, int prio)
        static final MethodHandle SETPRIORITY = LINKER.downcallHandle(
                find("setpriority"), FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), CAPTURE_ERRNO);
    }

    /**
     * setpriority(PRIO_PROCESS, tid, nice): Linux keeps the nice value per thread, so this sets
     * one thread's ({@code tid} 0: the calling thread). Returns 0, or the errno (EACCES when the
     * value would be lowered without CAP_SYS_NICE, ESRCH when the thread is gone).
     */
    public static int setThreadNice(int tid, int nice) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            int rc = (int) Priority.SETPRIORITY.invokeExact(state, Priority.PRIO_PROCESS, tid, nice);
            return rc == 0 ? 0 : (int) ERRNO.get(state, 0L);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static final int IN_ATTRIB = 0x4;
    public static final int IN_MOVED_TO = 0x80;
    public static final int IN_CREATE = 0x100;
    public static final int IN_DELETE = 0x200;
    public static final int IN_Q_OVERFLOW = 0x4000;

    /** Bound on first use: only the collector's watch of its session directory waits this way. */
    private static final class Waits {
        static final MethodHandle INOTIFY_INIT1 =
                LINKER.downcallHandle(find("inotify_init1"), FunctionDescriptor.of(JAVA_INT, JAVA_INT), CAPTURE_ERRNO);
        static final MethodHandle INOTIFY_ADD_WATCH = LINKER.downcallHandle(
                find("inotify_add_watch"), FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT), CAPTURE_ERRNO);
        // int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *tmo_p, const sigset_t *sigmask)
        static final MethodHandle PPOLL = LINKER.downcallHandle(
                find("ppoll"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS));
    }

    /** inotify_init1(IN_NONBLOCK | IN_CLOEXEC): value is the descriptor, or -1 with errno. */
    public static Result inotifyInit() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(CAPTURE);
            int fd = (int) Waits.INOTIFY_INIT1.invokeExact(state, O_NONBLOCK | O_CLOEXEC);
            return new Result(fd, fd < 0 ? (int) ERRNO.get(state, 0L) : 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** inotify_add_watch(2): value is the watch descriptor, or -1 with errno. */
    public static Result inotifyAddWatch(int fd, String path, int mask) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(CAPTURE);
            int wd = (int) Waits.INOTIFY_ADD_WATCH.invokeExact(state, fd, a.allocateFrom(path), mask);
            return new Result(wd, wd < 0 ? (int) ERRNO.get(state, 0L) : 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * ppoll(2) on {@code nfds} pollfd entries the caller filled in {@code pollfds}, for at most
     * {@code timeoutNs}, with {@code timespec} as scratch (16 bytes): no allocation, so a thread that
     * waits often pays only the call. Returns the number of ready entries (0 on timeout, -1 on EINTR).
     */
    public static int ppoll(MemorySegment pollfds, int nfds, long timeoutNs, MemorySegment timespec) {
        timespec.set(JAVA_LONG, 0, timeoutNs / 1_000_000_000L);
        timespec.set(JAVA_LONG, 8, timeoutNs % 1_000_000_000L);
        try {
            return (int) Waits.PPOLL.invokeExact(pollfds, (long) nfds, timespec, MemorySegment.NULL);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * posix_spawn(3) of {@code path} with {@code argv} and {@code envp} given as bytes (no
     * charset between the caller and the program); the child keeps this process's working
     * directory and every descriptor without close-on-exec. Value: the pid, or -1 with the error.
     */
    public static Result posixSpawn(byte[] path, java.util.List<byte[]> argv, java.util.List<byte[]> envp) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment pid = a.allocate(JAVA_INT);
            int rc = (int) PosixSpawn.H.invokeExact(
                    pid,
                    cString(a, path),
                    MemorySegment.NULL,
                    MemorySegment.NULL,
                    cStrings(a, argv),
                    cStrings(a, envp));
            return rc == 0 ? new Result(pid.get(JAVA_INT, 0), 0) : new Result(-1, rc);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static MemorySegment cString(Arena a, byte[] bytes) {
        MemorySegment s = a.allocate(bytes.length + 1L);
        MemorySegment.copy(bytes, 0, s, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, bytes.length);
        return s; // allocate() zeroes: the terminating NUL is there
    }

    private static MemorySegment cStrings(Arena a, java.util.List<byte[]> strings) {
        MemorySegment array = a.allocate(ADDRESS, strings.size() + 1L);
        for (int i = 0; i < strings.size(); i++) {
            array.setAtIndex(ADDRESS, i, cString(a, strings.get(i)));
        }
        array.setAtIndex(ADDRESS, strings.size(), MemorySegment.NULL);
        return array;
    }

    /** WNOHANG for {@link #waitpid}. */
    public static final int WNOHANG = 1;

    /**
     * waitpid(2) for one child; value: its pid (0 with WNOHANG while it runs) or -1 with errno; the
     * raw wait status in {@code status[0]}. EINTR is retried.
     */
    public static Result waitpid(long pid, int options, int[] status) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(CAPTURE);
            MemorySegment st = a.allocate(JAVA_INT);
            while (true) {
                int r = (int) Waitpid.H.invokeExact(state, (int) pid, st, options);
                int errno = r < 0 ? (int) ERRNO.get(state, 0L) : 0;
                if (r < 0 && errno == EINTR) {
                    continue;
                }
                status[0] = st.get(JAVA_INT, 0);
                return new Result(r, errno);
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** kill(2); 0 on success, -1 on failure. */
    public static int kill(long pid, int signal) {
        try {
            return (int) Kill.H.invokeExact((int) pid, signal);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int close(int fd) {
        try {
            return (int) Close.H.invokeExact(fd);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** poll(2) on {@code fds} for POLLIN; returns the number of ready fds (0 on timeout, -1 on EINTR). */
    public static int pollIn(int[] fds, int timeoutMs) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment pfd = a.allocate(8L * fds.length, 8);
            for (int i = 0; i < fds.length; i++) {
                pfd.set(JAVA_INT, 8L * i, fds[i]);
                pfd.set(java.lang.foreign.ValueLayout.JAVA_SHORT, 8L * i + 4, POLLIN);
            }
            MemorySegment state = a.allocate(CAPTURE);
            return (int) Poll.H.invokeExact(state, pfd, (long) fds.length, timeoutMs);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static String strerror(int errno) {
        try {
            MemorySegment s = (MemorySegment) Strerror.H.invokeExact(errno);
            return s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** A NUL-terminated C string a native call returned, or null for NULL. */
    public static String string(MemorySegment p) {
        return p.equals(MemorySegment.NULL)
                ? null
                : p.reinterpret(Long.MAX_VALUE).getString(0);
    }

    public static String errnoName(int errno) {
        return switch (errno) {
            case EPERM -> "EPERM";
            case ENOENT -> "ENOENT";
            case ESRCH -> "ESRCH";
            case EINTR -> "EINTR";
            case E2BIG -> "E2BIG";
            case EACCES -> "EACCES";
            case ENODEV -> "ENODEV";
            case EINVAL -> "EINVAL";
            case EMFILE -> "EMFILE";
            case ENOSYS -> "ENOSYS";
            case EOPNOTSUPP -> "EOPNOTSUPP";
            default -> "errno " + errno;
        };
    }

    /**
     * What a downcall threw, as an unchecked exception to throw: downcalls declare Throwable but
     * only ever throw what the handle's adaptation throws.
     */
    public static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
