package org.rocprofsys.sampler.perf;

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

/**
 * The libc calls of the sampler, through FFM. {@code syscall} and {@code ioctl} are variadic
 * (java-stack.md gotcha 5); errno is captured in the call (a later Java call would clobber it).
 * Handles are created on first use of this class; {@link #warmUp()} does it before a target is
 * spawned (the first variadic handle costs 15-20 ms).
 */
final class LibC {
    private LibC() {
    }

    static final int EPERM = 1;
    static final int ENOENT = 2;
    static final int ESRCH = 3;
    static final int EINTR = 4;
    static final int E2BIG = 7;
    static final int EACCES = 13;
    static final int ENODEV = 19;
    static final int EINVAL = 22;
    static final int EMFILE = 24;
    static final int ENOSYS = 38;
    static final int EOPNOTSUPP = 95;

    static final int PROT_READ = 1;
    static final int PROT_WRITE = 2;
    static final int MAP_SHARED = 1;
    static final long MAP_FAILED = -1L;
    static final short POLLIN = 1;

    /** PERF_FLAG_FD_CLOEXEC. */
    static final long PERF_FLAG_FD_CLOEXEC = 8;
    /** _IO('$', n). */
    static final long PERF_EVENT_IOC_ENABLE = 0x2400;
    static final long PERF_EVENT_IOC_DISABLE = 0x2401;
    static final long PERF_EVENT_IOC_SET_OUTPUT = 0x2405;

    static final long SYS_PERF_EVENT_OPEN = switch (System.getProperty("os.arch")) {
        case "amd64", "x86_64" -> 298;
        case "aarch64", "arm64" -> 241;
        case "riscv64", "loongarch64" -> 241;
        case "ppc64le" -> 319;
        default -> -1;
    };

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIBC = LINKER.defaultLookup();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO =
            CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    // long syscall(long number, ...): perf_event_open(attr*, pid_t, int cpu, int group_fd, unsigned long flags)
    private static final MethodHandle SYSCALL_PERF = LINKER.downcallHandle(find("syscall"),
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG),
            Linker.Option.firstVariadicArg(1), CAPTURE_ERRNO);
    // int ioctl(int fd, unsigned long request, ...)
    private static final MethodHandle IOCTL = LINKER.downcallHandle(find("ioctl"),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG), Linker.Option.firstVariadicArg(2),
            CAPTURE_ERRNO);
    private static final MethodHandle MMAP = LINKER.downcallHandle(find("mmap"),
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG),
            CAPTURE_ERRNO);
    private static final MethodHandle MUNMAP = LINKER.downcallHandle(find("munmap"),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle CLOSE = LINKER.downcallHandle(find("close"),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    // int poll(struct pollfd *fds, nfds_t nfds, int timeout)
    private static final MethodHandle POLL = LINKER.downcallHandle(find("poll"),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), CAPTURE_ERRNO);
    private static final MethodHandle STRERROR = LINKER.downcallHandle(find("strerror"),
            FunctionDescriptor.of(ADDRESS, JAVA_INT));
    private static final MethodHandle GETPAGESIZE = LINKER.downcallHandle(find("getpagesize"),
            FunctionDescriptor.of(JAVA_INT));

    static final int PAGE_SIZE = pageSize();

    private static MemorySegment find(String name) {
        return LIBC.find(name).orElseThrow(() -> new UnsatisfiedLinkError("libc has no " + name));
    }

    private static int pageSize() {
        try {
            return (int) GETPAGESIZE.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Forces the class (and its downcall handles) to initialize. */
    static void warmUp() {
        // the static initializer did the work
    }

    /** A result and the errno captured with it (errno meaningful only on failure). */
    record Result(long value, int errno) {
    }

    static Result perfEventOpen(MemorySegment attr, int pid, int cpu, int groupFd, long flags) {
        if (SYS_PERF_EVENT_OPEN < 0) {
            return new Result(-1, ENOSYS);
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(CAPTURE);
            long r = (long) SYSCALL_PERF.invokeExact(state, SYS_PERF_EVENT_OPEN, attr, pid, cpu, groupFd, flags);
            return new Result(r, r < 0 ? (int) ERRNO.get(state, 0L) : 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static Result ioctl(int fd, long request, long arg) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(CAPTURE);
            int r = (int) IOCTL.invokeExact(state, fd, request, arg);
            return new Result(r, r < 0 ? (int) ERRNO.get(state, 0L) : 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** mmap(NULL, length, PROT_READ|PROT_WRITE, MAP_SHARED, fd, 0); value is the address or -1. */
    static Result mmapShared(int fd, long length) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(CAPTURE);
            MemorySegment p = (MemorySegment) MMAP.invokeExact(state, MemorySegment.NULL, length,
                    PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0L);
            long addr = p.address();
            return new Result(addr, addr == MAP_FAILED ? (int) ERRNO.get(state, 0L) : 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int munmap(MemorySegment address, long length) {
        try {
            return (int) MUNMAP.invokeExact(address, length);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int close(int fd) {
        try {
            return (int) CLOSE.invokeExact(fd);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** poll(2) on {@code fds} for POLLIN; returns the number of ready fds (0 on timeout, -1 on EINTR). */
    static int pollIn(int[] fds, int timeoutMs) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment pfd = a.allocate(8L * fds.length, 8);
            for (int i = 0; i < fds.length; i++) {
                pfd.set(JAVA_INT, 8L * i, fds[i]);
                pfd.set(java.lang.foreign.ValueLayout.JAVA_SHORT, 8L * i + 4, POLLIN);
            }
            MemorySegment state = a.allocate(CAPTURE);
            return (int) POLL.invokeExact(state, pfd, (long) fds.length, timeoutMs);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static String strerror(int errno) {
        try {
            MemorySegment s = (MemorySegment) STRERROR.invokeExact(errno);
            return s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static String errnoName(int errno) {
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

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
