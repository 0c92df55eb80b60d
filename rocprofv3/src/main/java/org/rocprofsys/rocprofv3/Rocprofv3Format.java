package org.rocprofsys.rocprofv3;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.atomicfile.AtomicFile;
import org.rocprofsys.config.output.OutputPaths;
import org.rocprofsys.core.event.GpuActivity;
import org.rocprofsys.core.event.ProcessEnded;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkEvent;
import org.rocprofsys.core.gpu.GpuDevice;
import org.rocprofsys.core.gpu.GpuEvent;
import org.rocprofsys.core.output.OutputContext;
import org.rocprofsys.core.output.OutputFormat;
import org.rocprofsys.core.output.OutputWriter;
import org.rocprofsys.core.output.WrittenFile;
import org.rocprofsys.rocprofv3.json.JsonDocument;
import org.rocprofsys.rocprofv3.stats.DomainStatistics;
import org.rocprofsys.rocprofv3.stats.StatsText;
import org.rocprofsys.rocprofv3.stats.SummaryTable;
import org.rocprofsys.rocprofv3.trace.AgentInfo;
import org.rocprofsys.rocprofv3.trace.Csv;
import org.rocprofsys.rocprofv3.trace.KernelNames;
import org.rocprofsys.rocprofv3.trace.TraceFile;
import org.rocprofsys.rocprofv3.trace.TraceRow;
import org.rocprofsys.rocprofv3.trace.TraceRows;

/**
 * rocprofv3's own outputs, per process: the per-event CSV files of the traces asked for, the
 * agent_info.csv, with --stats each domain's {@code _stats.csv} and {@code domain_stats.csv}, the
 * JSON document, and the -S/-D summary. They are written at the end of the run from the GPU
 * events kept until then (rocprofv3 too writes its files at finalization).
 */
public final class Rocprofv3Format implements OutputFormat {
    @Override
    public boolean enabled(Settings settings) {
        return Rocprofv3Settings.of(settings).any();
    }

    @Override
    public OutputWriter open(OutputContext context) {
        return new Writer(context, Rocprofv3Settings.of(context.settings()));
    }

    private static final class Writer implements OutputWriter {
        private final OutputContext context;
        private final Rocprofv3Settings asked;
        private final Map<Integer, List<GpuEvent>> events = new TreeMap<>();
        private final Map<Integer, ProcessStarted> started = new TreeMap<>();
        private final Map<Integer, Long> ended = new TreeMap<>();
        private final List<WrittenFile> written = new ArrayList<>();

        Writer(OutputContext context, Rocprofv3Settings asked) {
            this.context = context;
            this.asked = asked;
        }

        @Override
        public boolean readsRegions() {
            return false; // GPU activity and process lifetimes only
        }

        @Override
        public void accept(SinkEvent event) {
            switch (event) {
                case GpuActivity g ->
                    events.computeIfAbsent(g.pid(), p -> new ArrayList<>()).add(g.event());
                case ProcessStarted s -> started.putIfAbsent(s.pid(), s);
                case ProcessEnded e -> ended.put(e.pid(), e.timestampNs());
                default -> {}
            }
        }

        @Override
        public void finish(RunSummary summary) throws IOException {
            KernelNames names = new KernelNames(asked.truncateKernels(), asked.mangledKernels());
            Path directory = context.paths().directory();
            String host = hostname();
            List<JsonDocument.Process> json = new ArrayList<>();
            String jsonPrefix = null;
            StringBuilder summaries = new StringBuilder();
            // the launched program has its files even without GPU work (agent_info.csv, as rocprofv3's)
            events.putIfAbsent(context.rootPid(), new ArrayList<>());
            for (var entry : events.entrySet()) {
                int pid = entry.getKey();
                ProcessStarted s = started.get(pid);
                String prefix = new OutputFileName(pid, s == null ? 0 : s.ppid(), host, System.getenv())
                        .expand(asked.outputFile());
                List<GpuEvent> list = entry.getValue();
                List<TraceRow> rows = new TraceRows(names).rows(list);
                List<TraceRow> kept = rows.stream()
                        .filter(r -> asked.traces().contains(r.file().trace))
                        .toList();
                List<GpuDevice> devices = list.stream()
                        .filter(GpuDevice.class::isInstance)
                        .map(GpuDevice.class::cast)
                        .toList();
                if (asked.formats().contains("csv")) {
                    writeCsv(directory, prefix, kept, devices);
                }
                DomainStatistics stats = new DomainStatistics();
                kept.forEach(stats::add);
                if (asked.stats() && asked.formats().contains("csv")) {
                    for (TraceFile d : stats.domains()) {
                        write(
                                file(directory, prefix, d.statsFileName, "csv"),
                                StatsText.csv(stats.entries(d)),
                                d.statsFileName);
                    }
                    if (!stats.domains().isEmpty()) {
                        write(
                                file(directory, prefix, "domain_stats", "csv"),
                                StatsText.csv(stats.perDomain()),
                                "domain_stats");
                    }
                }
                summaries.append(summary(stats));
                if (asked.formats().contains("json")) {
                    long init = s == null
                            ? list.stream()
                                    .mapToLong(GpuEvent::timestampNs)
                                    .min()
                                    .orElse(0)
                            : s.timestampNs();
                    long fini = ended.getOrDefault(pid, summary.endNs());
                    json.add(new JsonDocument.Process(pid, init, fini, devices, kept, names));
                    jsonPrefix = jsonPrefix == null ? prefix : jsonPrefix;
                }
            }
            if (!json.isEmpty()) {
                write(file(directory, jsonPrefix, "results", "json"), JsonDocument.text(json), "json");
            }
            if (!summaries.isEmpty()) {
                printSummary(summaries.toString());
            }
        }

        private String summary(DomainStatistics stats) {
            StringBuilder out = new StringBuilder();
            String unit = asked.summaryUnits();
            if (asked.summaryPerDomain()) {
                for (TraceFile d : stats.domains()) {
                    out.append(SummaryTable.text("ROCPROFV3 " + d.statsDomain + " SUMMARY:", stats.entries(d), unit));
                }
            }
            if (asked.summary() && !stats.domains().isEmpty()) {
                out.append(SummaryTable.text("ROCPROFV3 SUMMARY:", stats.all(), unit));
            }
            return out.toString();
        }

        private void printSummary(String text) throws IOException {
            String target = asked.summaryOutputFile();
            if (target == null || target.isBlank() || target.equals("stderr")) {
                context.log().print(text);
            } else if (target.equals("stdout")) {
                context.cout().print(text);
            } else {
                Path file = Path.of(target);
                OutputPaths.createParentDirectories(file.toAbsolutePath());
                AtomicFile.writeString(file, text);
                written.add(new WrittenFile("rocprofv3", "summary", file));
            }
        }

        private void writeCsv(Path directory, String prefix, List<TraceRow> rows, List<GpuDevice> devices)
                throws IOException {
            Map<TraceFile, StringBuilder> files = new EnumMap<>(TraceFile.class);
            for (TraceRow r : rows) {
                StringBuilder sb = files.computeIfAbsent(r.file(), f -> {
                    StringBuilder b = new StringBuilder();
                    Csv.header(b, f.columns);
                    return b;
                });
                Csv.line(sb, r.values());
            }
            for (var f : files.entrySet()) {
                write(
                        file(directory, prefix, f.getKey().fileName, "csv"),
                        f.getValue().toString(),
                        f.getKey().fileName);
            }
            if (!asked.traces().isEmpty()) {
                write(file(directory, prefix, "agent_info", "csv"), AgentInfo.csv(devices), "agent_info");
            }
        }

        private static Path file(Path directory, String prefix, String name, String ext) {
            return directory.resolve((prefix.isEmpty() ? "" : prefix + "_") + name + "." + ext);
        }

        private void write(Path file, String text, String key) throws IOException {
            OutputPaths.createParentDirectories(file);
            AtomicFile.writeString(file, text);
            context.announce("rocprofv3", file);
            written.add(new WrittenFile("rocprofv3", key, file));
        }

        @Override
        public List<WrittenFile> report() {
            return List.copyOf(written);
        }

        private static String hostname() {
            try {
                return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
            } catch (IOException e) {
                return "localhost";
            }
        }
    }
}
