package org.rocprofsys.core.perfetto;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.atomicfile.AtomicFile;
import org.rocprofsys.config.atomicfile.FileWriteException;
import org.rocprofsys.config.output.OutputPaths;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.output.AbandonedOnFailure;
import org.rocprofsys.core.output.BackgroundOutputStream;
import org.rocprofsys.core.output.DirectFileOutputStream;
import org.rocprofsys.core.output.OutputContext;
import org.rocprofsys.core.output.OutputFormat;
import org.rocprofsys.core.output.OutputWriter;
import org.rocprofsys.core.output.WrittenFile;
import org.rocprofsys.core.timemory.RegionAnnotations;

/**
 * The Perfetto trace (ROCPROFSYS_TRACE), at ROCPROFSYS_PERFETTO_FILE's place. It is streamed to a
 * temporary file that is renamed over the trace's name once complete, or removed when the trace
 * could not be completed; {@link TraceBudget} keeps it within ROCPROFSYS_PERFETTO_BUFFER_SIZE_KB.
 */
public final class PerfettoFormat implements OutputFormat {
    /**
     * Writes a small trace to nowhere: its first packets initialise protobuf's generated classes
     * and runtime, which took the trace writer 30-70 ms at the end of a short run, after the
     * target, where every run waits for it. Called on a thread of its own while the command line
     * is read; the bytes written are discarded.
     */
    public static void warmUp() throws IOException {
        PerfettoSink sink = new PerfettoSink(
                OutputStream.nullOutputStream(),
                new PerfettoSink.Options(true, 0, 0, "warm-up", 1, RegionAnnotations.NONE));
        sink.accept(new ProcessStarted(1, 1, 0, "warm-up", List.of("warm-up"), 0, 0));
        sink.accept(new ThreadStarted(1, 1, 1, 0));
        sink.accept(new RegionBegin(2, 1, 1, "warm-up", Category.HOST, List.of(), RegionMetrics.NONE));
        sink.accept(new RegionEnd(3, 1, 1, Category.HOST, List.of(), RegionMetrics.NONE, false));
        sink.finish(new RunSummary(4, 0, 1, "warm-up", Map.of()));
    }

    @Override
    public boolean enabled(Settings settings) {
        return settings.bool("ROCPROFSYS_TRACE");
    }

    /** The trace's segment encoder threads (-1, the default: as many as suit the machine). */
    public static final String ENCODERS = "ROCPROFSYS_PERFETTO_ENCODERS";

    /** The trace's segment encoders: ROCPROFSYS_PERFETTO_ENCODERS, where -1 leaves them to the machine. */
    static int encoderThreads(Settings settings) {
        long set = settings.integer(ENCODERS);
        return set == -1 ? PerfettoSink.Options.encoderThreadsHere() : (int) Math.max(0, set);
    }

    @Override
    public OutputWriter open(OutputContext context) throws IOException {
        Path file = context.paths().perfettoFile();
        OutputPaths.createParentDirectories(file);
        AtomicFile.Pending pending = AtomicFile.begin(file);
        TraceBudget budget;
        OutputStream toFile;
        try {
            // the budget and the file are served by a thread of their own: write(2) was a third to
            // a half of the trace thread's time on a 16-core host, and the budget's walk over the
            // packets a tenth of what remained (that thread is the slowest stage of a traced run).
            // The file is written past the page cache where its file system allows: the kernel's
            // copy into fresh page cache was a third of a traced run's CPU on the 2-core VM. Its
            // buffer also gathers the budget's packet-by-packet writes (near the limit, and the
            // ring buffer's at the end).
            budget = TraceBudget.of(context.settings(), DirectFileOutputStream.open(pending.temporary()));
            toFile = new BackgroundOutputStream(budget, "rocprof-sys-trace-file");
        } catch (IOException e) {
            pending.close();
            throw new FileWriteException(file, AtomicFile.reason(e), e);
        }
        PerfettoSink sink = new PerfettoSink(
                toFile,
                new PerfettoSink.Options(
                        context.settings().bool("ROCPROFSYS_PERFETTO_ANNOTATIONS"),
                        context.realtimeOffsetNs(),
                        0,
                        context.executable(),
                        1,
                        RegionAnnotations.from(context.settings()),
                        // the ring_buffer budget needs each sequence's state packets at its start
                        budget.policy() == TraceBudget.FillPolicy.DISCARD ? encoderThreads(context.settings()) : 0),
                budget.kinds()); // which packets hold state: the ring_buffer budget keeps them
        return new Writer(sink, toFile, budget, pending, file, context);
    }

    /**
     * @param toFile the sink's stream: the budget's bytes reach it from a thread of its own, so
     *               {@code budget} may be read only once {@code toFile} is closed (by the sink's finish)
     */
    private record Writer(
            PerfettoSink sink,
            OutputStream toFile,
            TraceBudget budget,
            AtomicFile.Pending pending,
            Path file,
            OutputContext context)
            implements AbandonedOnFailure {
        /** The trace is renamed over its file once the sink has finished it. */
        @Override
        public void finish(RunSummary summary) throws IOException {
            orAbandon(() -> {
                sink.finish(summary);
                pending.commit();
            });
        }

        /** Removes the incomplete trace; the error names the trace, not its temporary file. */
        @Override
        public IOException abandon(IOException e) {
            sink.abandon();
            try {
                toFile.close(); // its thread closes the budget and the file, after a failure too
            } catch (IOException closing) {
                e.addSuppressed(closing);
            }
            try {
                pending.close();
            } catch (IOException removing) {
                e.addSuppressed(removing);
            }
            return FileWriteException.naming(file, e);
        }

        /** Upstream's line, with the trace's size, once every output has been written. */
        @Override
        public List<WrittenFile> report() throws IOException {
            double bytes = Files.size(file);
            context.log()
                    .printf(
                            Locale.ROOT,
                            "[rocprof-sys][%d][perfetto]> Outputting '%s' (%.2f KB / %.2f MB / %.2f GB)" + "... Done%n",
                            context.rootPid(),
                            file,
                            bytes / 1024,
                            bytes / (1024 * 1024),
                            bytes / (1024 * 1024 * 1024));
            TraceBudget.Dropped dropped = budget.dropped();
            if (dropped.packets() > 0) {
                context.log().println(droppedWarning(budget, dropped));
            }
            return List.of(new WrittenFile("protobuf", "perfetto", file));
        }

        /** The budget in metadata.json: its settings and what it dropped. */
        @Override
        public Map<String, JsonNode> metadata() {
            ObjectNode node = JsonNodeFactory.instance.objectNode();
            node.put("buffer_size_kb", budget.limitBytes() / 1024);
            node.put("fill_policy", budget.policy().settingValue());
            node.put("dropped_packets", budget.dropped().packets());
            node.put("dropped_bytes", budget.dropped().bytes());
            return Map.of("perfetto_buffer", node);
        }
    }

    /** The one line that says what the trace lost to its buffer size. */
    static String droppedWarning(TraceBudget budget, TraceBudget.Dropped dropped) {
        String which = budget.policy() == TraceBudget.FillPolicy.DISCARD
                ? "the packets after the buffer filled were dropped"
                : "the oldest packets were overwritten";
        return String.format(
                Locale.ROOT,
                "[rocprof-sys][perfetto] warning: the trace reached ROCPROFSYS_PERFETTO_BUFFER_SIZE_KB=%d"
                        + " (ROCPROFSYS_PERFETTO_FILL_POLICY=%s): %s: %d packets (%.2f MB) are not in the trace;"
                        + " raise ROCPROFSYS_PERFETTO_BUFFER_SIZE_KB to keep them",
                budget.limitBytes() / 1024,
                budget.policy().settingValue(),
                which,
                dropped.packets(),
                dropped.bytes() / (1024.0 * 1024.0));
    }
}
