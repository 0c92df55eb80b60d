package org.rocprofsys.processsampling;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.event.CounterTrack;

/**
 * The target's resource use, summed over the target and its descendants, from /proc: memory
 * (RSS, virtual, peak), context switches, page faults, user and kernel CPU time, and the I/O and
 * network bytes where /proc has them. Levels are shown as read; cumulative counters as the change
 * since the previous tick. The periodic path stays cheap: the per-process files are kept open and
 * re-read in place, and the process tree and the network totals are refreshed every
 * {@link #SLOW_REFRESH_NS} rather than on every tick.
 */
final class ProcessTreeReader implements MetricReader {
    /** USER_HZ: the unit of utime/stime in /proc/<pid>/stat; 100 on every Linux x86-64 kernel. */
    private static final double CLOCK_TICKS_PER_SECOND = 100.0;

    private static final long PAGE_SIZE = 4096;
    private static final double MB = 1024.0 * 1024.0;
    static final long SLOW_REFRESH_NS = 100_000_000L;

    private final Path proc;
    private final int rootPid;
    private final CounterTrack memory;
    private final CounterTrack virtual;
    private final CounterTrack peak;
    private final CounterTrack contextSwitches;
    private final CounterTrack pageFaults;
    private final CounterTrack userTime;
    private final CounterTrack kernelTime;
    private final CounterTrack readBytes;
    private final CounterTrack writeBytes;
    private final CounterTrack receiveBytes;
    private final CounterTrack transmitBytes;
    private Totals previous;
    private final java.util.Map<Integer, Files4> open = new java.util.HashMap<>();
    private Set<Integer> tree = Set.of();
    private boolean treeStale = true;
    private long treeReadAt;
    private boolean networkStale = true;
    private long networkReadAt;
    private long rx = -1;
    private long tx = -1;

    /** The per-process files read on every tick. */
    private record Files4(ProcFile statm, ProcFile status, ProcFile stat, ProcFile io) {
        static Files4 of(Path dir) {
            return new Files4(
                    new ProcFile(dir.resolve("statm")),
                    new ProcFile(dir.resolve("status")),
                    new ProcFile(dir.resolve("stat")),
                    new ProcFile(dir.resolve("io")));
        }

        void close() {
            statm.close();
            status.close();
            stat.close();
            io.close();
        }
    }

    /** Sums over the process tree at one tick. */
    private static final class Totals {
        long rssPages;
        long vmKb;
        long hwmKb;
        long contextSwitches;
        long pageFaults;
        long utimeTicks;
        long stimeTicks;
        long readBytes = -1;
        long writeBytes = -1;
        long rxBytes = -1;
        long txBytes = -1;
    }

    ProcessTreeReader(Path root, int rootPid) {
        this.proc = root.resolve("proc");
        this.rootPid = rootPid;
        memory = new CounterTrack("CPU Memory Usage (S)", "MB", Category.PROCESS_PAGE, rootPid);
        virtual = new CounterTrack("CPU Virtual Memory Usage (S)", "MB", Category.PROCESS_VIRT, rootPid);
        peak = new CounterTrack("CPU Peak Memory (S)", "MB", Category.PROCESS_PEAK, rootPid);
        contextSwitches = new CounterTrack("CPU Context Switches (S)", "", Category.PROCESS_CONTEXT_SWITCH, rootPid);
        pageFaults = new CounterTrack("CPU Page Faults (S)", "", Category.PROCESS_PAGE_FAULT, rootPid);
        userTime = new CounterTrack("CPU User Time (S)", "sec", Category.PROCESS_USER_MODE_TIME, rootPid);
        kernelTime = new CounterTrack("CPU Kernel Time (S)", "sec", Category.PROCESS_KERNEL_MODE_TIME, rootPid);
        readBytes = new CounterTrack("CPU I/O Read (S)", "MB", Category.PROCESS_SAMPLING, rootPid);
        writeBytes = new CounterTrack("CPU I/O Write (S)", "MB", Category.PROCESS_SAMPLING, rootPid);
        receiveBytes = new CounterTrack("Network Receive (S)", "MB", Category.PROCESS_SAMPLING, rootPid);
        transmitBytes = new CounterTrack("Network Transmit (S)", "MB", Category.PROCESS_SAMPLING, rootPid);
    }

    @Override
    public void read(long timestampNs, Consumer<CounterSample> out) {
        if (treeStale || timestampNs - treeReadAt >= SLOW_REFRESH_NS) {
            tree = processTree();
            treeReadAt = timestampNs;
            treeStale = false;
            open.keySet().removeIf(pid -> {
                if (tree.contains(pid)) {
                    return false;
                }
                open.get(pid).close();
                return true;
            });
        }
        if (tree.isEmpty()) {
            return; // the target is gone: nothing to report
        }
        Totals t = new Totals();
        for (int pid : tree) {
            add(t, pid);
        }
        if (t.rssPages == 0 && t.vmKb == 0) {
            treeStale = true; // every process of the tree just ended: look again next tick
            return;
        }
        if (networkStale || timestampNs - networkReadAt >= SLOW_REFRESH_NS) {
            network();
            networkReadAt = timestampNs;
            networkStale = false;
        }
        t.rxBytes = rx;
        t.txBytes = tx;
        out.accept(new CounterSample(timestampNs, memory, t.rssPages * PAGE_SIZE / MB));
        out.accept(new CounterSample(timestampNs, virtual, t.vmKb / 1024.0));
        out.accept(new CounterSample(timestampNs, peak, t.hwmKb / 1024.0));
        Totals p = previous == null ? t : previous;
        out.accept(new CounterSample(timestampNs, contextSwitches, Math.max(0, t.contextSwitches - p.contextSwitches)));
        out.accept(new CounterSample(timestampNs, pageFaults, Math.max(0, t.pageFaults - p.pageFaults)));
        out.accept(new CounterSample(
                timestampNs, userTime, Math.max(0, t.utimeTicks - p.utimeTicks) / CLOCK_TICKS_PER_SECOND));
        out.accept(new CounterSample(
                timestampNs, kernelTime, Math.max(0, t.stimeTicks - p.stimeTicks) / CLOCK_TICKS_PER_SECOND));
        if (t.readBytes >= 0 && p.readBytes >= 0) {
            out.accept(new CounterSample(timestampNs, readBytes, Math.max(0, t.readBytes - p.readBytes) / MB));
            out.accept(new CounterSample(timestampNs, writeBytes, Math.max(0, t.writeBytes - p.writeBytes) / MB));
        }
        if (t.rxBytes >= 0 && p.rxBytes >= 0) {
            out.accept(new CounterSample(timestampNs, receiveBytes, Math.max(0, t.rxBytes - p.rxBytes) / MB));
            out.accept(new CounterSample(timestampNs, transmitBytes, Math.max(0, t.txBytes - p.txBytes) / MB));
        }
        previous = t;
    }

    /** The target and its descendants, through each thread's {@code children} file. */
    private Set<Integer> processTree() {
        Set<Integer> pids = new LinkedHashSet<>();
        ArrayDeque<Integer> todo = new ArrayDeque<>(List.of(rootPid));
        while (!todo.isEmpty()) {
            int pid = todo.pop();
            Path task = proc.resolve(Integer.toString(pid)).resolve("task");
            if (!Files.isDirectory(task) || !pids.add(pid)) {
                continue;
            }
            try (DirectoryStream<Path> threads = Files.newDirectoryStream(task)) {
                for (Path thread : threads) {
                    for (String child : read(thread.resolve("children")).split("\\s+")) {
                        if (!child.isEmpty()) {
                            todo.push(Integer.parseInt(child));
                        }
                    }
                }
            } catch (IOException | NumberFormatException e) {
                // the process ended while we looked; keep what we have
            }
        }
        return pids;
    }

    private void add(Totals t, int pid) {
        Files4 files = open.computeIfAbsent(pid, p -> Files4.of(proc.resolve(Integer.toString(p))));
        String[] statm = files.statm().read().split("\\s+");
        if (statm.length > 1) {
            t.rssPages += parse(statm[1]);
        }
        for (String line : files.status().read().split("\n")) {
            if (line.startsWith("VmSize:")) {
                t.vmKb += parse(line.replaceAll("[^0-9]", ""));
            } else if (line.startsWith("VmHWM:")) {
                t.hwmKb += parse(line.replaceAll("[^0-9]", ""));
            } else if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                t.contextSwitches += parse(line.replaceAll("[^0-9]", ""));
            }
        }
        String stat = files.stat().read();
        int close = stat.lastIndexOf(')');
        if (close > 0) {
            // fields after "(comm)": state is field 3; minflt 10, majflt 12, utime 14, stime 15
            String[] f = stat.substring(close + 2).split(" ");
            if (f.length > 12) {
                t.pageFaults += parse(f[7]) + parse(f[9]);
                t.utimeTicks += parse(f[11]);
                t.stimeTicks += parse(f[12]);
            }
        }
        String io = files.io().read();
        if (!io.isEmpty()) {
            for (String line : io.split("\n")) {
                if (line.startsWith("read_bytes:")) {
                    t.readBytes = Math.max(t.readBytes, 0) + parse(line.replaceAll("[^0-9]", ""));
                } else if (line.startsWith("write_bytes:")) {
                    t.writeBytes = Math.max(t.writeBytes, 0) + parse(line.replaceAll("[^0-9]", ""));
                }
            }
        }
    }

    /** Bytes through the target's network namespace, loopback excluded. */
    private void network() {
        String dev = read(proc.resolve(Integer.toString(rootPid)).resolve("net/dev"));
        if (dev.isEmpty()) {
            return;
        }
        long rx = 0;
        long tx = 0;
        for (String line : dev.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0 || line.substring(0, colon).strip().equals("lo")) {
                continue;
            }
            String[] f = line.substring(colon + 1).strip().split("\\s+");
            if (f.length >= 9) {
                rx += parse(f[0]);
                tx += parse(f[8]);
            }
        }
        this.rx = rx;
        this.tx = tx;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            return "";
        }
    }

    private static long parse(String s) {
        try {
            return s.isEmpty() ? 0 : Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
