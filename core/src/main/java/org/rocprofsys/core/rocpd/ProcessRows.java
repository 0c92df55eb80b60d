package org.rocprofsys.core.rocpd;

import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.gpu.GpuDevice;
import org.rocprofsys.core.tracker.ThreadTable;

/**
 * The rows that name where things happened: a process image, its threads and its agents (every
 * CPU of the node, and the GPUs it used). A row is created the first time anything refers to it,
 * so an event of a thread or process the run never announced still has its parents; machine-wide
 * series (pid 0) belong to the launched target.
 */
final class ProcessRows {
    /** One thread of a process image: its row, its sample track and its open regions. */
    static final class ThreadRows {
        final long id;
        final int sequence;
        long sampleTrack;
        /** The track of the thread's overflow samples (0 until its first). */
        long overflowTrack;

        final ArrayDeque<OpenRegion> open = new ArrayDeque<>();

        ThreadRows(long id, int sequence) {
            this.id = id;
            this.sequence = sequence;
        }
    }

    /** One process image. */
    static final class ProcessImage {
        final long id;
        final int pid;
        final int ppid;
        final long[] cpuAgents;
        final Map<Integer, Long> gpuAgents = new HashMap<>();

        ProcessImage(long id, int pid, int ppid, int cpus) {
            this.id = id;
            this.pid = pid;
            this.ppid = ppid;
            this.cpuAgents = new long[cpus];
        }
    }

    private final RocpdRows rows;
    private final NodeInfo node;
    private final int rootPid;
    private final Map<Integer, ProcessImage> processes = new HashMap<>();
    /** The threads of the current image of each pid (pid 0 stands for the target's). */
    private final ThreadTable<ThreadRows> threads = new ThreadTable<>();

    private final RocpdDatabase.Update processEnd;
    private final RocpdDatabase.Update threadEnd;

    ProcessRows(RocpdRows rows, NodeInfo node, int rootPid) throws SQLException {
        this.rows = rows;
        this.node = node;
        this.rootPid = rootPid;
        RocpdDatabase db = rows.database();
        processEnd = db.update("rocpd_info_process", "\"end\" = ?, \"fini\" = ?", "\"id\" = ?");
        threadEnd = db.update("rocpd_info_thread", "\"end\" = ?", "\"id\" = ?");
    }

    /** A new image of {@code p.pid()} (the target, a fork child, the program after exec). */
    ProcessImage started(ProcessStarted p) throws SQLException {
        String command = String.join(" ", p.commandLine());
        String extdata = "{\"executable\":" + Json.quote(p.executable()) + ",\"exec_generation\":" + p.execGeneration()
                + ",\"forked_from\":" + p.forkedFrom() + "}";
        ProcessImage image =
                create(p.pid(), p.ppid(), p.timestampNs(), command.isEmpty() ? p.executable() : command, extdata);
        if (processes.put(p.pid(), image) != null) { // a new image (exec): its threads are new
            threads.removeProcess(p.pid(), (k, t) -> {});
        }
        return image;
    }

    void ended(int pid, long time) throws SQLException {
        ProcessImage image = processes.get(pid);
        if (image == null) {
            return;
        }
        rows.database().addUpdate(processEnd, time, time, image.id);
    }

    /** The image events of {@code pid} belong to (pid 0: the launched target's). */
    ProcessImage process(int pid, long time) throws SQLException {
        int key = pid == 0 ? rootPid : pid;
        ProcessImage image = processes.get(key);
        if (image == null) {
            image = create(key, 0, time, "", "{}");
            processes.put(key, image);
        }
        return image;
    }

    ThreadRows threadStarted(int pid, int tid, int sequence, long time) throws SQLException {
        ProcessImage image = process(pid, time);
        ThreadRows t = new ThreadRows(rows.thread(image.ppid, image.id, tid, "Thread " + sequence, time), sequence);
        threads.put(image.pid, tid, t);
        return t;
    }

    void threadEnded(int pid, int tid, long time) throws SQLException {
        ThreadRows t = processes.containsKey(pid) ? threads.get(pid, tid) : null;
        if (t == null) {
            return;
        }
        rows.database().addUpdate(threadEnd, time, t.id);
    }

    /** The thread {@code tid} of {@code pid}; one never announced is numbered after its tid. */
    ThreadRows thread(int pid, int tid, long time) throws SQLException {
        ThreadRows t = threads.get(pid == 0 ? rootPid : pid, tid); // events come in runs of one thread: cached
        if (t == null) {
            ProcessImage image = process(pid, time);
            t = new ThreadRows(rows.thread(image.ppid, image.id, tid, "Thread " + tid, time), -1);
            threads.put(image.pid, tid, t);
        }
        return t;
    }

    /** The first CPU agent of the process: where host work and host memory are placed. */
    long cpuAgent(ProcessImage image) {
        return image.cpuAgents[0];
    }

    /** The GPU agent of {@code device}, from the device's description when one was seen. */
    long gpuAgent(ProcessImage image, int device, GpuDevice described) throws SQLException {
        Long id = image.gpuAgents.get(device);
        if (id != null) {
            return id;
        }
        String name = described != null ? described.name() : "GPU " + device;
        String vendor = described != null ? described.vendor() : "";
        String extdata = described == null
                ? "{}"
                : "{\"uuid\":" + Json.quote(described.uuid()) + ",\"multiprocessors\":" + described.multiprocessors()
                        + ",\"memory_bytes\":" + described.memoryBytes() + ",\"compute_capability\":"
                        + Json.quote(described.computeCapability()) + "}";
        long created =
                rows.agent(image.id, "GPU", image.cpuAgents.length + device, device, name, name, vendor, extdata);
        image.gpuAgents.put(device, created);
        return created;
    }

    private ProcessImage create(int pid, int ppid, long time, String command, String extdata) throws SQLException {
        long id = rows.process(ppid, pid, time, command, extdata);
        int cpus = Math.max(1, node.cpuModels().size());
        ProcessImage image = new ProcessImage(id, pid, ppid, cpus);
        for (int i = 0; i < cpus; i++) {
            String model = i < node.cpuModels().size() ? node.cpuModels().get(i) : "CPU";
            image.cpuAgents[i] = rows.agent(id, "CPU", i, i, "CPU " + i, model, node.cpuVendor(), "{}");
        }
        return image;
    }
}
