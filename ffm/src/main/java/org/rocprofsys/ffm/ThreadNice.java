package org.rocprofsys.ffm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * Puts the collector's analysis threads (the unwinder, the JIT compilers) at nice 19, so that a
 * target competing with them for a CPU gets it first; on an idle CPU they run as before. Only
 * work that can wait is lowered: Linux lets an unprivileged thread raise its nice value but not
 * lower it again, and the threads that empty the kernel's and the agent's rings keep their
 * priority so that a busy target never makes them lose records.
 *
 * <p>The level is the setting ROCPROFSYS_ANALYSIS_NICE (default 19; 0 leaves every thread alone),
 * so the overhead benchmark can compare both in one run: the tool that loads the settings hands it
 * to {@link #configure}, and the JIT compilers are lowered once it has ({@link
 * #lowerJitCompilersSoon}).
 */
public final class ThreadNice {
    /** The lowest priority a nice value gives (weight 15 against 1024 at nice 0). */
    public static final int BACKGROUND = 19;

    private static final Path TASKS = Path.of("/proc/self/task");

    private static volatile int level = BACKGROUND;

    /** Completed by the first {@link #configure}: the JIT compilers' lowering waits for it. */
    private static final CompletableFuture<Void> CONFIGURED = new CompletableFuture<>();

    private ThreadNice() {}

    /** The configured level: 0 turns the feature off. */
    public static int level() {
        return level;
    }

    /** Sets the level (the run's ROCPROFSYS_ANALYSIS_NICE, clamped to 0-19). */
    public static void configure(long nice) {
        level = (int) Math.clamp(nice, 0, BACKGROUND);
        CONFIGURED.complete(null);
    }

    /** Lowers the calling thread; false when the level is 0 or the kernel refused. */
    public static boolean lowerCurrentThread() {
        int level = level();
        return level > 0 && LibC.setThreadNice(0, level) == 0;
    }

    /**
     * Lowers every thread of this process whose kernel name ({@code comm}, at most 15
     * characters) {@code matches}; returns how many were lowered. Threads they create later
     * inherit the value.
     */
    public static int lowerThreads(Predicate<String> matches) {
        int level = level();
        if (level == 0) {
            return 0;
        }
        int lowered = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                String comm;
                try {
                    comm = Files.readString(task.resolve("comm"), StandardCharsets.UTF_8)
                            .strip();
                } catch (IOException e) {
                    continue; // the thread ended meanwhile
                }
                if (matches.test(comm)
                        && LibC.setThreadNice(
                                        Integer.parseInt(task.getFileName().toString()), level)
                                == 0) {
                    lowered++;
                }
            }
        } catch (IOException e) {
            return lowered; // no /proc: leave the priorities as they are
        }
        return lowered;
    }

    /**
     * {@link #lowerJitCompilers} on a thread of its own once the level is {@linkplain #configure
     * configured}, so that a tool's start-up does not wait for the /proc scan and the binding of
     * setpriority (together 10-30 ms on a small machine).
     */
    public static void lowerJitCompilersSoon() {
        CONFIGURED.thenRunAsync(
                ThreadNice::lowerJitCompilers,
                task -> Thread.ofPlatform().daemon().name("rocprof-sys-nice").start(task));
    }

    /**
     * The HotSpot JIT compiler threads ("C1 CompilerThread0", "C2 CompilerThread1", ... as the
     * kernel shortens them): compiling can wait, the compiled code is a speed-up, not a result.
     */
    public static int lowerJitCompilers() {
        return lowerThreads(comm -> comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre"));
    }
}
