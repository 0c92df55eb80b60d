package org.rocprofsys.core.perfetto;

import java.io.IOException;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.perfetto.proto.TracePacket;
import org.rocprofsys.core.perfetto.proto.TrackEvent;

/**
 * Counter values (upstream's process and GPU sampling tracks): each a {@code TYPE_COUNTER} event
 * on its counter track, on the global sequence with an absolute CLOCK_MONOTONIC time.
 */
final class CounterWriter {
    private final PacketBuffer out;
    private final TrackRegistry tracks;

    CounterWriter(PacketBuffer out, TrackRegistry tracks) {
        this.out = out;
        this.tracks = tracks;
    }

    void write(CounterSample c) throws IOException {
        long uuid = tracks.counter(c.track(), c.timestampNs());
        out.write(TracePacket.newBuilder()
                .setTimestamp(c.timestampNs())
                .setTrustedPacketSequenceId(PerfettoSink.GLOBAL_SEQUENCE_ID)
                .setTrackEvent(TrackEvent.newBuilder()
                        .setType(TrackEvent.Type.TYPE_COUNTER)
                        .setTrackUuid(uuid)
                        .setDoubleCounterValue(c.value()))
                .build());
    }
}
