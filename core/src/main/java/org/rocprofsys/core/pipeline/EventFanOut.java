package org.rocprofsys.core.pipeline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.Consumer;
import org.rocprofsys.core.event.EventSink;
import org.rocprofsys.core.event.SinkEvent;

/** Hands every event to every sink, in order. */
final class EventFanOut implements Consumer<SinkEvent> {
    private final List<EventSink> sinks;

    EventFanOut(List<? extends EventSink> sinks) {
        this.sinks = List.copyOf(sinks);
    }

    @Override
    public void accept(SinkEvent e) {
        for (EventSink s : sinks) {
            try {
                s.accept(e);
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        }
    }
}
