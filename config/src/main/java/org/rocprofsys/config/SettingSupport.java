package org.rocprofsys.config;

import java.util.Set;

/**
 * Whether this build acts on a setting (the registry's {@code honoured} flag). A setting it does
 * not act on is accepted, validated and written to metadata.json, and a value other than its
 * default gets one "not supported yet" warning ({@link UnsupportedSettings}).
 */
public sealed interface SettingSupport {

    /** Whether a value (in canonical form) has its effect. */
    boolean honours(String value);

    /** Code reads the setting and acts on every value ({@code honoured}). */
    record Honoured() implements SettingSupport {
        @Override
        public boolean honours(String value) {
            return true;
        }
    }

    /**
     * Only these values have their effect ({@code honoured=a|b}): a mode with only some choices
     * built, or a switch whose "off" already holds because the feature it turns off is not built.
     */
    record HonouredValues(Set<String> values) implements SettingSupport {
        public HonouredValues {
            values = Set.copyOf(values);
        }

        @Override
        public boolean honours(String value) {
            return values.contains(value.strip());
        }
    }

    /** Accepted but not acted on yet. */
    record NotYet() implements SettingSupport {
        @Override
        public boolean honours(String value) {
            return false;
        }
    }
}
