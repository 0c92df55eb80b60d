package org.rocprofsys.rocm.source;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rocprofsys.core.spi.SettingWords;

/**
 * {@code ROCPROFSYS_ROCM_EVENTS} in upstream's syntax: GPU counter names separated by commas (or
 * spaces, semicolons), each optionally followed by {@code :device=N} to collect it on GPU N only.
 * Whether a name is a counter the GPU has is for the SDK to say: the tool checks the names against
 * each agent's counters and names the unknown ones.
 */
public final class RocmEvents {
    public static final String SETTING = "ROCPROFSYS_ROCM_EVENTS";

    private static final Pattern EVENT = Pattern.compile("([A-Za-z_][A-Za-z0-9_.\\[\\]]*)(?::device=([0-9]+))?");

    /** One requested counter: its name and the only device to collect it on (empty: every GPU). */
    public record Event(String name, OptionalInt device) {
        /** As the tool reads it back. */
        public String spec() {
            return device.isPresent() ? name + ":device=" + device.getAsInt() : name;
        }
    }

    private RocmEvents() {}

    /**
     * The events of a setting value (empty for none).
     *
     * @throws IllegalArgumentException naming the entry that is not {@code NAME[:device=N]}
     */
    public static List<Event> parse(String value) {
        List<Event> events = new ArrayList<>();
        for (String token : SettingWords.of(value, "[ ,;\t\n]+")) {
            Matcher m = EVENT.matcher(token);
            if (!m.matches()) {
                throw new IllegalArgumentException(SETTING + ": '" + token
                        + "' is not a GPU counter name with an optional ':device=N' (e.g. SQ_WAVES:device=0)");
            }
            events.add(new Event(
                    m.group(1),
                    m.group(2) == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(m.group(2)))));
        }
        return events;
    }
}
