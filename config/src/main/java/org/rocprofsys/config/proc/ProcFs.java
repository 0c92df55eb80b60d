package org.rocprofsys.config.proc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Linux's {@code /proc}, or a directory laid out like it (tests, a root prefix). Every reader is
 * forgiving: a process can end between two reads, so a file that cannot be read is an empty
 * result, never an exception. Text is decoded as UTF-8, malformed bytes replaced.
 */
public final class ProcFs {
    private static final ProcFs SYSTEM = new ProcFs(Path.of("/proc"));

    private final Path root;

    public ProcFs(Path root) {
        this.root = root;
    }

    /** The machine's {@code /proc}. */
    public static ProcFs system() {
        return SYSTEM;
    }

    public Path root() {
        return root;
    }

    /** {@code <root>/<pid>}. */
    public Path dir(long pid) {
        return root.resolve(Long.toString(pid));
    }

    /** The text of {@code <root>/<relative>}; empty when it cannot be read. */
    public Optional<String> read(String relative) {
        return readFile(root.resolve(relative));
    }

    /** The text of {@code <root>/<pid>/<file>}; empty when it cannot be read (the process is gone). */
    public Optional<String> read(long pid, String file) {
        return readFile(dir(pid).resolve(file));
    }

    /**
     * The text of any file; empty when it cannot be read. Read through a stream: for a file that
     * reports size 0, as /proc and /sys files do, {@code Files.readAllBytes} (JDK 25) first reads
     * one byte, and a sysctl answers a read at a nonzero offset with end of file, so
     * /proc/sys/kernel/perf_event_max_sample_rate read "1" instead of "100000".
     */
    public static Optional<String> readFile(Path file) {
        try (java.io.InputStream in = Files.newInputStream(file)) {
            return Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    public Optional<ProcStat> stat(long pid) {
        return read(pid, "stat").flatMap(ProcStat::parse);
    }

    /** {@code /proc/self/stat}: the calling process. */
    public Optional<ProcStat> selfStat() {
        return read("self/stat").flatMap(ProcStat::parse);
    }

    public Optional<StatusFields> status(long pid) {
        return read(pid, "status").map(StatusFields::parse);
    }

    /** The mappings of a process; empty when it is gone or not readable. */
    public List<MapsEntry> maps(long pid) {
        return read(pid, "maps").map(MapsEntry::parseAll).orElse(List.of());
    }

    /** The mappings of the calling process. */
    public List<MapsEntry> selfMaps() {
        return read("self/maps").map(MapsEntry::parseAll).orElse(List.of());
    }

    public Optional<CpuInfo> cpuInfo() {
        return read("cpuinfo").map(CpuInfo::parse);
    }

    public Optional<StatusFields> memInfo() {
        return read("meminfo").map(StatusFields::parse);
    }

    /** A kernel tunable, {@code sys/<name>} (e.g. {@code kernel/perf_event_paranoid}), trimmed. */
    public Optional<String> sysctl(String name) {
        return read("sys/" + name).map(String::trim);
    }

    /** The ids of the processes present now (the numeric entries of the root). */
    public List<Long> pids() {
        List<Long> pids = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root, ProcFs::isPidDirectory)) {
            for (Path dir : entries) {
                pids.add(Long.parseLong(dir.getFileName().toString()));
            }
        } catch (IOException | RuntimeException e) {
            // what was listed before the failure is all there is
        }
        return pids;
    }

    /**
     * Number of processes whose parent is {@code ppid} (the caller included when it is one of
     * them). Processes that exit during the scan are simply not counted.
     */
    public int countChildren(long ppid) {
        int count = 0;
        for (long pid : pids()) {
            Optional<ProcStat> stat = stat(pid);
            if (stat.isPresent() && stat.get().ppid() == ppid) {
                count++;
            }
        }
        return count;
    }

    /**
     * The children of every thread of {@code pid}, from {@code task/<tid>/children}; empty when
     * the process is gone. The list is cut short where a thread ends during the scan.
     */
    public Optional<List<Integer>> children(long pid) {
        Path task = dir(pid).resolve("task");
        if (!Files.isDirectory(task)) {
            return Optional.empty();
        }
        List<Integer> children = new ArrayList<>();
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(task)) {
            for (Path thread : threads) {
                for (String child :
                        readFile(thread.resolve("children")).orElse("").split("\\s+")) {
                    if (!child.isEmpty()) {
                        children.add(Integer.parseInt(child));
                    }
                }
            }
        } catch (IOException | NumberFormatException e) {
            // the process ended while we looked; keep what we have
        }
        return Optional.of(children);
    }

    private static boolean isPidDirectory(Path p) {
        String name = p.getFileName().toString();
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
