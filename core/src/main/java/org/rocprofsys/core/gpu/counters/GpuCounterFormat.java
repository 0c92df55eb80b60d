package org.rocprofsys.core.gpu.counters;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.rocprofsys.config.output.OutputPaths;
import org.rocprofsys.core.event.GpuActivity;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.gpu.GpuCounterSample;
import org.rocprofsys.core.gpu.GpuTracingFormat;
import org.rocprofsys.core.gpu.GpuVendor;
import org.rocprofsys.core.output.GpuActivityWriter;
import org.rocprofsys.core.output.OutputContext;
import org.rocprofsys.core.timemory.DataTrackerText;

/**
 * The per-kernel GPU counter outputs, written when the run saw counter samples: one
 * {@code rocprof-device-<dev>-<METRIC>.txt} per device and metric (upstream's data_tracker
 * storage: a row per kernel name with the count, sum, mean, min, max and spread of its values),
 * and {@code counter_collection_stats.csv}/{@code .json}, every kernel and metric in one table.
 */
public final class GpuCounterFormat extends GpuTracingFormat {
    static final String STATS = "counter_collection_stats";

    /** @param vendors the registered GPU tracing vendors (their switches turn the format on) */
    public GpuCounterFormat(List<GpuVendor> vendors) {
        super(vendors, Writer::new);
    }

    private static final class Writer extends GpuActivityWriter {
        /** By device and metric key, then by kernel name. */
        private final Map<String, Map<String, CounterValues>> values = new TreeMap<>();

        private final Map<String, CounterSeries> series = new TreeMap<>();

        Writer(OutputContext context) {
            super(context);
        }

        @Override
        protected void accept(GpuActivity g) {
            if (g.event() instanceof GpuCounterSample s) {
                String key = String.format(Locale.ROOT, "%08d/%s", s.device(), s.metricKey());
                series.putIfAbsent(key, new CounterSeries(s.device(), s.metricKey(), s.metric()));
                values.computeIfAbsent(key, k -> new TreeMap<>())
                        .computeIfAbsent(s.kernelName(), k -> new CounterValues())
                        .add(s.value());
            }
        }

        @Override
        public void finish(RunSummary summary) throws IOException {
            if (values.isEmpty()) {
                return;
            }
            OutputPaths paths = context.paths();
            for (var e : values.entrySet()) {
                CounterSeries s = series.get(e.getKey());
                List<DataTrackerText.Row> rows = new ArrayList<>();
                e.getValue()
                        .forEach((kernel, v) -> rows.add(
                                new DataTrackerText.Row(kernel, v.count(), v.sum(), v.min(), v.max(), v.variance())));
                String name = "rocprof-device-" + s.device() + "-" + s.metricKey();
                write(paths.file(name, "txt"), DataTrackerText.render(s.metric(), "", rows), "text", name);
            }
            write(paths.file(STATS, "csv"), CounterStatsText.csv(rows()), "text", STATS);
            write(paths.file(STATS, "json"), CounterStatsText.json(rows()), "json", STATS);
        }

        /** Every kernel's values of every series, in file order. */
        private List<CounterStatsText.Row> rows() {
            List<CounterStatsText.Row> rows = new ArrayList<>();
            values.forEach((key, kernels) ->
                    kernels.forEach((kernel, v) -> rows.add(new CounterStatsText.Row(kernel, series.get(key), v))));
            return rows;
        }
    }
}
