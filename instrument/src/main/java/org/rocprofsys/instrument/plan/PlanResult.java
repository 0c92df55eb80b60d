package org.rocprofsys.instrument.plan;

import java.util.List;
import java.util.Map;
import org.rocprofsys.instrument.select.SelectionMessage;

/**
 * What {@link Planner#plan} returns: the plan itself plus what the CLI logs.
 *
 * @param plan     the plan (lists and patches)
 * @param aliases  per function entry address, the other (demangled) names of that function
 * @param messages the selection log in order, upstream's wording; the CLI prints those whose level
 *                 is at most the verbosity
 */
public record PlanResult(InstrumentPlan plan, Map<Long, List<String>> aliases, List<SelectionMessage> messages) {
    public PlanResult {
        aliases = Map.copyOf(aliases);
        messages = List.copyOf(messages);
    }

    /** Upstream's summary line: {@code %4zu instrumented funcs in <module>}. */
    public String summary() {
        return String.format("%4d instrumented funcs in %s", plan.instrumented().size(), plan.module());
    }
}
