package org.rocprofsys.config;

/** Where a setting's value came from, lowest precedence first (upstream's "updated" field). */
public enum ValueSource {
    DEFAULT("default"),
    CONFIG("config"),
    ENVIRON("environ"),
    USER("user");

    private final String label;

    ValueSource(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
