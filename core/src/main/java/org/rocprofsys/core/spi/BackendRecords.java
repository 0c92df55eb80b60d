package org.rocprofsys.core.spi;

import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import java.util.function.Supplier;
import org.rocprofsys.core.event.TraceEvent;

/**
 * The ring records of one process image that a GPU backend owns (the record types it claims,
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

    /** A backend's decoder of one process image's records. */
    interface Decoder {
        /**
         * Decodes one record written on thread {@code tid}'s ring.
         *
         * @throws IllegalArgumentException for a malformed record
         */
        void accept(int tid, MemorySegment record);

        /** The image has ended at {@code endNs}: emits what is still open. */
        void finish(long endNs);
    }

    /**
     * The records of {@code pid} whose types {@code owns} claims, decoded by the decoder
     * {@code decoder} makes at the image's first such record (most images have none: nothing is
     * paid for them); a malformed record is a {@link WireException} naming the thread.
     */
    static BackendRecords decoding(int pid, IntPredicate owns, Supplier<? extends Decoder> decoder) {
        return new BackendRecords() {
            private Decoder made;

            @Override
            public boolean owns(int type) {
                return owns.test(type);
            }

            @Override
            public void accept(int tid, MemorySegment record) throws WireException {
                if (made == null) {
                    made = decoder.get();
                }
                try {
                    made.accept(tid, record);
                } catch (IllegalArgumentException e) {
                    throw new WireException("pid " + pid + " tid " + tid + ": " + e.getMessage());
                }
            }

            @Override
            public void finish(long endNs) {
                if (made != null) {
                    made.finish(endNs);
                }
            }
        };
    }

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
