package org.rocprofsys.core.perfetto;

import java.util.function.Consumer;
import org.rocprofsys.core.perfetto.proto.TrackEvent;

/**
 * Flows: the arrows the UI draws between events of one id (an API call and the device work it
 * caused). Flow ids are global in the trace; the UI draws from the earliest event of an id to the
 * later ones. A flow is a field of the event it leaves or ends at, added here.
 */
final class FlowWriter {
    /** No flow: the event as it is. */
    static final Consumer<TrackEvent.Builder> NONE = ev -> {};

    private FlowWriter() {}

    /** Starts flow {@code id} at an event, or with {@code terminating} ends it there. */
    static Consumer<TrackEvent.Builder> of(long id, boolean terminating) {
        return ev -> add(ev, id, terminating);
    }

    /** Starts flow {@code id} at {@code ev}, or with {@code terminating} ends it there. */
    static void add(TrackEvent.Builder ev, long id, boolean terminating) {
        if (terminating) {
            ev.addTerminatingFlowIds(id);
        } else {
            ev.addFlowIds(id);
        }
    }
}
