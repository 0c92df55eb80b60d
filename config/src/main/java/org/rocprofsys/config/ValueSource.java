package org.rocprofsys.config;

import java.util.Locale;

/** Where a setting's value came from, lowest precedence first (upstream's "updated" field). */
public enum ValueSource {
    DEFAULT,
    CONFIG,
    ENVIRON,
    USER;

    /** Upstream's word for it: the constant's name in lower case ("default", "environ", ...). */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
