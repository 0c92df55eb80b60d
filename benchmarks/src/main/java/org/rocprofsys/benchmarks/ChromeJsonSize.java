package org.rocprofsys.benchmarks;

import java.util.HashMap;
import java.util.Map;
import org.rocprofsys.core.event.EventSink;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkEvent;
import org.rocprofsys.core.event.ThreadStarted;

/**
 * The baseline of benchmark 3: the size of the same events written as a Chrome trace-event JSON
 * file ({@code {"traceEvents":[...]}}, the format of chrome://tracing and Perfetto's legacy JSON),
 * counted without writing it anywhere. Regions become "B"/"E" events with ts in microseconds
 * with nanosecond decimals; an "E" carries no name or category (the Perfetto END does not
 * either), so this is the leanest faithful JSON. With {@code annotations}, begins and ends carry
 * {@code args} begin_ns / end_ns (CLOCK_REALTIME ns) as the Perfetto sink's annotations do.
 * Process and thread names are metadata ("M") events.
 */
final class ChromeJsonSize implements EventSink {
    private final boolean annotations;
    private final long realtimeOffsetNs;
    private final StringBuilder sb = new StringBuilder(256);
    private final Map<Integer, Boolean> seen = new HashMap<>();
    private long bytes = "{\"traceEvents\":[\n".length();
    private boolean first = true;

    ChromeJsonSize(boolean annotations, long realtimeOffsetNs) {
        this.annotations = annotations;
        this.realtimeOffsetNs = realtimeOffsetNs;
    }

    long bytes() {
        return bytes;
    }

    @Override
    public void accept(SinkEvent event) {
        sb.setLength(0);
        switch (event) {
            case ProcessStarted p ->
                sb.append("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":")
                        .append(p.pid())
                        .append(",\"args\":{\"name\":\"")
                        .append(p.executable())
                        .append("\"}}");
            case ThreadStarted t ->
                sb.append("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":")
                        .append(t.pid())
                        .append(",\"tid\":")
                        .append(t.tid())
                        .append(",\"args\":{\"name\":\"Thread ")
                        .append(t.sequence())
                        .append("\"}}");
            case RegionBegin b -> {
                sb.append("{\"name\":\"")
                        .append(b.name())
                        .append("\",\"cat\":\"")
                        .append(b.category().label())
                        .append("\",\"ph\":\"B\",");
                common(b.timestampNs(), b.pid(), b.tid());
                annotation("begin_ns", b.timestampNs());
                sb.append('}');
            }
            case RegionEnd e -> {
                sb.append("{\"ph\":\"E\",");
                common(e.timestampNs(), e.pid(), e.tid());
                annotation("end_ns", e.timestampNs());
                sb.append('}');
            }
            default -> {
                return; // thread/process ends carry nothing in this format
            }
        }
        bytes += sb.length() + (first ? 0 : 2); // ",\n" between events
        first = false;
    }

    /** With annotations, the event's {@code args}: {@code key} and the CLOCK_REALTIME ns. */
    private void annotation(String key, long timestampNs) {
        if (annotations) {
            sb.append(",\"args\":{\"")
                    .append(key)
                    .append("\":")
                    .append(timestampNs + realtimeOffsetNs)
                    .append('}');
        }
    }

    private void common(long ns, int pid, int tid) {
        sb.append("\"ts\":").append(ns / 1000).append('.');
        long frac = ns % 1000;
        if (frac < 100) {
            sb.append('0');
        }
        if (frac < 10) {
            sb.append('0');
        }
        sb.append(frac).append(",\"pid\":").append(pid).append(",\"tid\":").append(tid);
    }

    @Override
    public void finish(RunSummary summary) {
        bytes += "\n]}\n".length();
    }
}
