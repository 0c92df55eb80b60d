package org.rocprofsys.core.event;

import java.util.Objects;
import org.rocprofsys.core.gpu.GpuEvent;

/**
 * A GPU event (API call, kernel, copy, marker, ...) as the outputs see it: GPU backends decode
 * their records into {@link GpuEvent}s, and the pipeline carries each one in this wrapper, so the
 * GPU model stays in its own package while sinks still switch over one sealed hierarchy. Every
 * GPU event is complete (begin and end known) and may arrive out of time order.
 */
public record GpuActivity(GpuEvent event) implements SinkEvent {
    public GpuActivity {
        Objects.requireNonNull(event, "event");
    }

    @Override
    public long timestampNs() {
        return event.timestampNs();
    }

    @Override
    public int pid() {
        return event.pid();
    }
}
