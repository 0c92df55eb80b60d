package org.rocprofsys.core.spi;

import java.util.function.Consumer;
import org.rocprofsys.core.event.TraceEvent;

/**
 * The decoder of the ring records a backend's target-side library writes into the agent's rings
 * (a GPU backend's): for each process image, a {@link BackendRecords} that claims its record types
 * ({@link BackendRecords#owns}) and decodes them on the collector thread.
 */
public interface RecordDecoder extends SessionPart, BackendRecords.Factory {
    /** The decoder of {@code factory}'s records. */
    static RecordDecoder of(BackendRecords.Factory factory) {
        return factory::open;
    }

    @Override
    BackendRecords open(int pid, Consumer<TraceEvent> out);
}
