package org.rocprofsys.core.spi;

import java.util.function.Consumer;
import org.rocprofsys.core.event.TraceEvent;

/**
 * A pipeline stage in front of {@code downstream} for every event the collector hands on (agent
 * records and background events alike), run on the collector thread; e.g. turns the agent's raw
 * stack samples into symbolized ones. The stages of the parts run in the providers' order.
 */
public interface InterceptStage extends SessionPart {
    Consumer<TraceEvent> intercept(Consumer<TraceEvent> downstream);
}
