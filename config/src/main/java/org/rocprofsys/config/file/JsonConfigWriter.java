package org.rocprofsys.config.file;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.regex.Pattern;
import org.rocprofsys.config.SettingDefinition;
import org.rocprofsys.config.SettingType;

/**
 * Writes {@code {"rocprofiler-systems": {"settings": {...}}}}; {@link JsonConfigReader} reads it
 * back. With {@code full}, each entry is the whole setting record as upstream's {@code --all}.
 */
public final class JsonConfigWriter {
    // compiled once: metadata.json writes every setting through here
    private static final Pattern INTEGER = Pattern.compile("[-+]?[0-9]+");
    private static final Pattern REAL = Pattern.compile("[-+]?[0-9]*\\.?[0-9]+([eE][-+]?[0-9]+)?");

    private JsonConfigWriter() {}

    public static String write(List<ConfigEntry> entries, boolean full) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = new JsonFactory().createGenerator(out)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeObjectFieldStart(JsonConfigReader.ROOT);
            g.writeFieldName("settings");
            writeSettings(g, entries, full);
            g.writeEndObject();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out + "\n";
    }

    /**
     * Writes the {@code "settings"} object's value; other documents that must read back as a config
     * (metadata.json) embed it through this.
     */
    public static void writeSettings(JsonGenerator g, List<ConfigEntry> entries, boolean full) throws IOException {
        g.writeStartObject();
        for (ConfigEntry e : entries) {
            SettingDefinition d = e.setting().definition();
            g.writeObjectFieldStart(d.envName());
            g.writeStringField("name", d.name());
            if (full) {
                g.writeStringField("environ", d.envName());
            }
            g.writeStringField("description", d.description());
            if (full) {
                g.writeStringField("data_type", d.type().displayName());
                writeTyped(g, "initial", d.type(), d.defaultValue());
            }
            writeTyped(g, "value", d.type(), e.value());
            if (full) {
                g.writeStringField("updated", e.setting().source().label());
                g.writeBooleanField("enabled", true);
            }
            g.writeArrayFieldStart("categories");
            for (String c : d.categories()) {
                g.writeString(c);
            }
            g.writeEndArray();
            if (!d.choices().isEmpty()) {
                g.writeArrayFieldStart("choices");
                for (String c : d.choices()) {
                    g.writeString(c);
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    /** Booleans and numbers as JSON values, so other tools read them typed; anything odd stays a string. */
    private static void writeTyped(JsonGenerator g, String field, SettingType type, String value) throws IOException {
        String v = value.strip();
        switch (type) {
            case BOOL -> {
                try {
                    g.writeBooleanField(field, SettingType.parseBool(v));
                } catch (IllegalArgumentException e) {
                    g.writeStringField(field, value);
                }
            }
            case STRING -> g.writeStringField(field, value);
            default -> {
                if (INTEGER.matcher(v).matches()) {
                    g.writeNumberField(field, Long.parseLong(v.replace("+", "")));
                } else if (REAL.matcher(v).matches()) {
                    g.writeFieldName(field);
                    g.writeNumber(v);
                } else {
                    g.writeStringField(field, value);
                }
            }
        }
    }
}
