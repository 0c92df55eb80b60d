package org.rocprofsys.config.file;

import java.util.Locale;

/** The formats rocprof-sys-avail -G writes, in the order upstream writes them. */
public enum ConfigFileFormat {
    JSON("JSON", ".json"),
    XML("XML", ".xml"),
    TEXT("text", ".cfg");

    private final String label;
    private final String extension;

    ConfigFileFormat(String label, String extension) {
        this.label = label;
        this.extension = extension;
    }

    public String label() {
        return label;
    }

    public String extension() {
        return extension;
    }

    /** {@code txt}, {@code json} or {@code xml}, as {@code -F} takes them. */
    public static ConfigFileFormat fromOption(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "txt", "text", "cfg" -> TEXT;
            case "json" -> JSON;
            case "xml" -> XML;
            default ->
                throw new IllegalArgumentException("unknown config format '" + s + "' (choose from txt, json, xml)");
        };
    }
}
