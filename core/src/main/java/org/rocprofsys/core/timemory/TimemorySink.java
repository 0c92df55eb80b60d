package org.rocprofsys.core.timemory;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntFunction;
import org.rocprofsys.config.output.OutputPaths;
import org.rocprofsys.core.calltree.CallTree;
import org.rocprofsys.core.calltree.ProcessCalls;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkEvent;
import org.rocprofsys.core.output.OutputWriter;
import org.rocprofsys.core.output.UnwrittenFile;
import org.rocprofsys.core.output.WrittenFile;

/**
 * Writes the timemory call-graph profiles: for each process and each selected component,
 * {@code <component>.json} (JSON_OUTPUT / TREE_OUTPUT) then {@code <component>.txt}
 * (TEXT_OUTPUT), then the table on standard output (COUT_OUTPUT), in that order as timemory
 * does, each file announced with timemory's line
 * {@code [rocprofiler-systems][<pid>][<component>]> Outputting '<path>'}.
 *
 * <p>Events are folded into call graphs as they come ({@link CallTree}); nothing is
 * written before {@link #finish}. A process with no region writes nothing.
 */
public final class TimemorySink implements OutputWriter {
    /** The project name timemory prints in its file messages (TIMEMORY_PROJECT_NAME of rocprof-sys). */
    public static final String PROJECT_NAME = "rocprofiler-systems";

    private static final long FINISH_STACK_BYTES = 512L << 20;

    private final TimemoryOptions options;
    private final IntFunction<OutputPaths> pathsForPid;
    private final OutputPaths rootPaths;
    private final PrintStream log;
    private final PrintStream cout;
    private final CallTree builder;
    private final List<OutputFile> files = new ArrayList<>();
    /** Files that could not be written (a full disk): each fails on its own, the others are written. */
    private final List<UnwrittenFile> unwritten = new ArrayList<>();
    /** Replaces the component's label in file names and messages (the sampled profiles' own names). */
    private String labelOverride;

    /**
     * For a run whose output names come from one {@link OutputPaths} (the launched target's):
     * another process's files end in {@code -<its pid>} instead of the target's pid suffix, and
     * share the target's names when there is no pid suffix (USE_PID off), as upstream.
     *
     * @param log  where the "Outputting" lines go (upstream: standard error)
     * @param cout where COUT_OUTPUT tables go (upstream: standard output)
     */
    public TimemorySink(TimemoryOptions options, OutputPaths paths, PrintStream log, PrintStream cout) {
        this(options, Objects.requireNonNull(paths, "paths"), null, log, cout);
    }

    /** With the output names of every process given by {@code pathsForPid}. */
    public TimemorySink(
            TimemoryOptions options, IntFunction<OutputPaths> pathsForPid, PrintStream log, PrintStream cout) {
        this(options, null, Objects.requireNonNull(pathsForPid, "pathsForPid"), log, cout);
    }

    private TimemorySink(
            TimemoryOptions options,
            OutputPaths rootPaths,
            IntFunction<OutputPaths> pathsForPid,
            PrintStream log,
            PrintStream cout) {
        this.options = Objects.requireNonNull(options, "options");
        this.rootPaths = rootPaths;
        this.pathsForPid = pathsForPid;
        this.log = Objects.requireNonNull(log, "log");
        this.cout = Objects.requireNonNull(cout, "cout");
        this.builder = new CallTree(
                new TimemoryMeter(options),
                options.profile().flat(),
                options.profile().timeline());
    }

    /** Every thread's graph starts at the head (see {@link CallTree#threadsAtRoot}). */
    TimemorySink withThreadsAtRoot() {
        builder.threadsAtRoot();
        return this;
    }

    /** Names the files {@code <label>.txt/.json} whatever the component (e.g. {@code sampling_wall_clock}). */
    TimemorySink withLabel(String label) {
        this.labelOverride = Objects.requireNonNull(label, "label");
        return this;
    }

    @Override
    public void accept(SinkEvent event) {
        builder.accept(event);
    }

    @Override
    public void acceptRegions(RegionRun run) {
        builder.acceptRegions(run);
    }

    @Override
    public void finish(RunSummary summary) throws IOException {
        builder.finish(summary.endNs());
        if (options.components().isEmpty()) {
            return;
        }
        // Trees are walked recursively (as timemory does); deep call stacks get a deep Java stack.
        IOException[] failure = new IOException[1];
        RuntimeException[] crash = new RuntimeException[1];
        Thread worker = new Thread(
                null,
                () -> {
                    try {
                        writeAll(summary.rootPid());
                    } catch (IOException e) {
                        failure[0] = e;
                    } catch (RuntimeException | StackOverflowError e) {
                        crash[0] = e instanceof RuntimeException r ? r : new IllegalStateException(e);
                    }
                },
                "timemory-output",
                FINISH_STACK_BYTES);
        worker.start();
        try {
            worker.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while writing the timemory profiles", e);
        }
        if (failure[0] != null) {
            throw failure[0];
        }
        if (crash[0] != null) {
            throw crash[0];
        }
    }

    private void writeAll(int rootPid) throws IOException {
        for (ProcessCalls p : builder.processes()) {
            ProcessReport report =
                    ProcessReport.build(p, options, pathsOf(p.pid()).rank());
            if (report.isEmpty()) {
                continue;
            }
            for (Component c : options.components()) {
                if (report.writes(c)) {
                    write(report, c, rootPid);
                }
            }
        }
    }

    /** Every file written, in order. */
    public List<OutputFile> files() {
        return List.copyOf(files);
    }

    /** The files written by kind ("json", "text"), for {@link RunSummary#outputs()} and metadata.json. */
    public Map<String, List<Path>> outputs() {
        Map<String, List<Path>> out = new LinkedHashMap<>();
        for (OutputFile f : files) {
            out.computeIfAbsent(f.kind(), k -> new ArrayList<>()).add(f.path());
        }
        return out;
    }

    @Override
    public List<UnwrittenFile> unwritten() {
        return List.copyOf(unwritten);
    }

    /** The files were announced as they were written, as timemory does. */
    @Override
    public List<WrittenFile> report() {
        return WrittenFiles.of(outputsByLabel());
    }

    /** The files written by kind and then component label, as metadata.json groups them. */
    public Map<String, Map<String, List<Path>>> outputsByLabel() {
        Map<String, Map<String, List<Path>>> out = new LinkedHashMap<>();
        for (OutputFile f : files) {
            out.computeIfAbsent(f.kind(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(f.label(), k -> new ArrayList<>())
                    .add(f.path());
        }
        return out;
    }

    private void write(ProcessReport report, Component c, int rootPid) throws IOException {
        boolean ranks = options.writesRanks();
        boolean tree = options.writesTree();
        if (ranks || tree) {
            String json = JsonReport.render(report, c, labelOverride, ranks, tree);
            emit(report.pid(), rootPid, c, "json", json);
        }
        String text = null;
        if (options.writesText()) {
            text = TextReport.render(report, c, labelOverride != null ? labelOverride : c.label());
            emit(report.pid(), rootPid, c, "txt", text);
        }
        if (options.outputs().cout()) {
            if (text == null) {
                text = TextReport.render(report, c, labelOverride != null ? labelOverride : c.label());
            }
            cout.print("\n" + text + "\n");
            cout.flush();
        }
    }

    /** The names of process {@code pid}'s outputs (the launched target's where one names all). */
    private OutputPaths pathsOf(int pid) {
        return pathsForPid != null ? pathsForPid.apply(pid) : rootPaths;
    }

    private void emit(int pid, int rootPid, Component c, String ext, String content) throws IOException {
        String label = labelOverride != null ? labelOverride : c.label();
        String printed;
        Path path;
        if (pathsForPid != null) {
            OutputPaths paths = pathsForPid.apply(pid);
            printed = paths.fileName(label, ext);
            path = paths.file(label, ext);
        } else if (pid != rootPid && rootPaths.suffix().equals("-" + rootPid)) {
            printed = rootPaths.fileName(label + "-" + pid, ext, "", false);
            path = rootPaths.file(label + "-" + pid, ext, "", false);
        } else {
            printed = rootPaths.fileName(label, ext);
            path = rootPaths.file(label, ext);
        }
        Optional<UnwrittenFile> failed = UnwrittenFile.write(path, content);
        if (failed.isPresent()) {
            unwritten.add(failed.get());
            return;
        }
        files.add(new OutputFile(ext.equals("json") ? "json" : "text", label, pid, path, printed));
        log.println("[" + PROJECT_NAME + "][" + pid + "][" + label + "]> Outputting '" + printed + "'");
        log.flush();
    }
}
