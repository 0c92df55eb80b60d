package org.rocprofsys.instrument.select;

import java.util.List;

/**
 * The outcome of selection for one function.
 *
 * @param instrument whether it is selected
 * @param reason     for a skipped function the deciding reason (upstream's words, e.g. "min-instructions");
 *                   for a selected one "no-constraint" or what forced it ("caller-include-regex", ...)
 * @param messages   the log lines produced on the way, in order
 */
public record Decision(boolean instrument, String reason, List<SelectionMessage> messages) {
    public Decision {
        messages = List.copyOf(messages);
    }
}
