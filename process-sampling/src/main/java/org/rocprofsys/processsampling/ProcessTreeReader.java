package org.rocprofsys.processsampling;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.rocprofsys.config.proc.NetDev;
import org.rocprofsys.config.proc.ProcFile;
import org.rocprofsys.config.proc.ProcFs;
import org.rocprofsys.config.proc.ProcStat;
import org.rocprofsys.config.proc.Statm;
import org.rocprofsys.config.proc.StatusFields;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.event.CounterTrack;

/**
 * The target's resource use, summed over the target and its descendants, from /proc: memory
 * (RSS, virtual, peak), context switches, page faults, user and kernel CPU time, and the I/O and
 * network bytes where /proc has them. Context switches are counted per thread
 * ({@code task/<tid>/status}: a process's own status file holds only its main thread's), as the
 * changes of each thread since the previous tick, so a thread that ends takes nothing back. Levels are shown as read; cumulative counters as the change
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

    private final ProcFs proc;
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
    /** Each live thread of the tree (by tid): its status file and its switches at the last tick. */
    private final Map<Integer, ThreadSwitches> threads = new HashMap<>();
    /** The tids of each process of the tree, listed with the tree. */
    private Map<Integer, List<Integer>> tids = Map.of();

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

    /** A thread's status file, kept open, and its context switches when last read (-1: never). */
    private static final class ThreadSwitches {
        final ProcFile status;
        long last = -1;

        ThreadSwitches(Path file) {
            status = new ProcFile(file);
        }
    }

    /** Sums over the process tree at one tick. */
    private static final class Totals {
        long rssPages;
        long vmKb;
        long hwmKb;
        /** The threads' context switches since the previous tick. */
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
        this.proc = new ProcFs(root.resolve("proc"));
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
            listThreads();
        }
        if (tree.isEmpty()) {
            return; // the target is gone: nothing to report
        }
        Totals t = new Totals();
        for (int pid : tree) {
            add(t, pid);
        }
        t.contextSwitches = switchesSinceLastTick(previous == null);
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
        out.accept(new CounterSample(timestampNs, contextSwitches, t.contextSwitches));
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
            if (pids.contains(pid)) {
                continue;
            }
            Optional<List<Integer>> children = proc.children(pid);
            if (children.isEmpty()) {
                continue;
            }
            pids.add(pid);
            children.get().forEach(todo::push);
        }
        return pids;
    }

    private void add(Totals t, int pid) {
        Files4 files = open.computeIfAbsent(pid, p -> Files4.of(proc.dir(p)));
        t.rssPages += Statm.parse(files.statm().read()).residentPages();
        StatusFields status = StatusFields.parse(files.status().read());
        t.vmKb += status.numberOrZero("VmSize");
        t.hwmKb += status.numberOrZero("VmHWM");
        ProcStat.parse(files.stat().read()).ifPresent(stat -> {
            t.pageFaults += stat.minorFaults() + stat.majorFaults();
            t.utimeTicks += stat.userTicks();
            t.stimeTicks += stat.systemTicks();
        });
        String io = files.io().read();
        if (!io.isEmpty()) {
            StatusFields bytes = StatusFields.parse(io);
            bytes.number("read_bytes").ifPresent(n -> t.readBytes = Math.max(t.readBytes, 0) + n);
            bytes.number("write_bytes").ifPresent(n -> t.writeBytes = Math.max(t.writeBytes, 0) + n);
        }
    }

    /** The threads of the tree's processes now; the files of those that ended are closed. */
    private void listThreads() {
        Map<Integer, List<Integer>> now = new HashMap<>();
        for (int pid : tree) {
            List<Integer> list = new ArrayList<>();
            try (var dir = Files.newDirectoryStream(proc.dir(pid).resolve("task"))) {
                for (Path task : dir) {
                    list.add(Integer.parseInt(task.getFileName().toString()));
                }
            } catch (IOException | NumberFormatException e) {
                // the process ended while we looked: its threads are left out
            }
            now.put(pid, list);
        }
        tids = now;
        Set<Integer> live = new HashSet<>();
        now.values().forEach(live::addAll);
        threads.keySet().removeIf(tid -> {
            if (live.contains(tid)) {
                return false;
            }
            threads.get(tid).status.close();
            return true;
        });
    }

    /**
     * The context switches of the tree's threads since the previous tick: each thread's change,
     * or all of a thread's that began since (none at the first tick, which only sets the baseline).
     */
    private long switchesSinceLastTick(boolean first) {
        long sum = 0;
        for (var e : tids.entrySet()) {
            for (int tid : e.getValue()) {
                ThreadSwitches ts = threads.computeIfAbsent(
                        tid, k -> new ThreadSwitches(proc.dir(e.getKey()).resolve("task/" + k + "/status")));
                String text = ts.status.read();
                if (text.isEmpty()) {
                    continue; // ended since the list was made
                }
                StatusFields status = StatusFields.parse(text);
                long now = status.numberOrZero("voluntary_ctxt_switches")
                        + status.numberOrZero("nonvoluntary_ctxt_switches");
                if (!first) {
                    sum += Math.max(0, now - Math.max(ts.last, 0));
                }
                ts.last = now;
            }
        }
        return sum;
    }

    /** Bytes through the target's network namespace, loopback excluded. */
    private void network() {
        String dev = proc.read(rootPid, "net/dev").orElse("");
        if (dev.isEmpty()) {
            return;
        }
        NetDev totals = NetDev.parse(dev);
        this.rx = totals.receiveBytes();
        this.tx = totals.transmitBytes();
    }
}
