package org.rocprofsys.core.event;

/** One value of a counter series at a time (process and GPU metric sampling). */
public record CounterSample(long timestampNs, CounterTrack track, double value) implements SinkEvent {
    /** The process the series describes, 0 when machine-wide. */
    @Override
    public int pid() {
        return track.pid();
    }
}
