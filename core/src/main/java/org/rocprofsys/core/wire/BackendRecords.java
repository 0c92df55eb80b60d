package org.rocprofsys.core.wire;

import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;
import org.rocprofsys.core.event.TraceEvent;

/**
 * The ring records of one process image that a GPU backend owns (the CUDA backend's types 13-16,
 * docs/wire-protocol.md "GPU records"): the collector's ring drains hand them over raw, and the
 * backend decodes them into events. One instance per image, shared by the drains of all its rings
 * (the records of one image refer to each other across rings).
 */
public interface BackendRecords {
    /** Whether records of {@code type} are this backend's. */
    boolean owns(int type);

    /**
     * Decodes one record written on the ring of thread {@code tid}; the segment is only valid
     * during the call.
     */
    void accept(int tid, MemorySegment record) throws WireException;

    /** The image has ended at {@code endNs}: emits what is still open (unclosed marker ranges). */
    void finish(long endNs);

    /** Makes the decoder of each process image. */
    @FunctionalInterface
    interface Factory {
        BackendRecords open(int pid, Consumer<TraceEvent> out);
    }

    /** Owns nothing: every record type it is asked about is unknown to the drain. */
    BackendRecords NONE = new BackendRecords() {
        @Override
        public boolean owns(int type) {
            return false;
        }

        @Override
        public void accept(int tid, MemorySegment record) {
            throw new IllegalStateException("no backend owns this record");
        }

        @Override
        public void finish(long endNs) {}
    };
}
