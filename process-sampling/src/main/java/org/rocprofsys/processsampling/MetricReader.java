package org.rocprofsys.processsampling;

import java.util.function.Consumer;
import org.rocprofsys.core.event.CounterSample;

/** One family of counter series read on every tick of the process sampler. */
interface MetricReader {
    void read(long timestampNs, Consumer<CounterSample> out);
}
