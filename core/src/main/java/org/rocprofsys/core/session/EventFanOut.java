package org.rocprofsys.core.session;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.Consumer;

import org.rocprofsys.core.event.EventSink;
import org.rocprofsys.core.event.TraceEvent;

/** Hands every event to every sink, in order. */
final class EventFanOut implements Consumer<TraceEvent> {
    private final List<EventSink> sinks;

    EventFanOut(List<EventSink> sinks) {
        this.sinks = List.copyOf(sinks);
    }

    @Override
    public void accept(TraceEvent e) {
        for (EventSink s : sinks) {
            try {
                s.accept(e);
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        }
    }
}
