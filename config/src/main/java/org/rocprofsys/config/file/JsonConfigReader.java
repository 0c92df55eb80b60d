package org.rocprofsys.config.file;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.rocprofsys.config.ConfigException;
import org.rocprofsys.config.RawEntry;

/**
 * The JSON config format: {@code {"rocprofiler-systems": {["metadata": {]"settings": {KEY: {"value": V, ...}}}}}}.
 * A {@code metadata.json} written by a run therefore reads back as a config. Streaming, so that an
 * unknown key can be reported with its line.
 */
public final class JsonConfigReader {
    public static final String ROOT = "rocprofiler-systems";
    private static final JsonFactory FACTORY = new JsonFactory();

    private JsonConfigReader() {}

    public static ConfigFileContents read(
            String fileName, String text, Map<String, String> environment, Function<String, Optional<String>> settings)
            throws ConfigException {
        Substitution substitution = new Substitution(environment, Map.of(), settings);
        List<RawEntry> entries = new ArrayList<>();
        try (JsonParser p = FACTORY.createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new ConfigException(fileName + ": a JSON config must be an object with a '" + ROOT + "' member");
            }
            boolean found = false;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                if (name.equals(ROOT) && p.currentToken() == JsonToken.START_OBJECT) {
                    found = true;
                    readProject(fileName, p, substitution, entries);
                } else {
                    p.skipChildren();
                }
            }
            if (!found) {
                throw new ConfigException(
                        fileName + ": no '" + ROOT + "' object; expected {\"" + ROOT + "\": {\"settings\": {...}}}");
            }
        } catch (JsonProcessingException e) {
            throw new ConfigException(
                    fileName + ":" + e.getLocation().getLineNr() + ": invalid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new ConfigException(fileName + ": " + e.getMessage());
        }
        return new ConfigFileContents(List.copyOf(entries), Map.of());
    }

    /** Inside the project object: "settings" directly, or nested in "metadata". */
    private static void readProject(String fileName, JsonParser p, Substitution substitution, List<RawEntry> entries)
            throws IOException, ConfigException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            if (t == JsonToken.START_OBJECT && name.equals("metadata")) {
                readProject(fileName, p, substitution, entries);
            } else if (t == JsonToken.START_OBJECT && name.equals("settings")) {
                readSettings(fileName, p, substitution, entries);
            } else {
                p.skipChildren();
            }
        }
    }

    private static void readSettings(String fileName, JsonParser p, Substitution substitution, List<RawEntry> entries)
            throws IOException, ConfigException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            String origin = fileName + ":" + p.currentLocation().getLineNr();
            JsonToken t = p.nextToken();
            String value;
            if (t == JsonToken.START_OBJECT) {
                value = null;
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String field = p.currentName();
                    JsonToken vt = p.nextToken();
                    if (field.equals("value")) {
                        value = scalar(origin, key, p, vt);
                    } else {
                        p.skipChildren();
                    }
                }
                if (value == null) {
                    throw new ConfigException(origin + ": setting '" + key + "' has no \"value\"");
                }
            } else {
                value = scalar(origin, key, p, t);
            }
            entries.add(new RawEntry(key, substitution.apply(value), origin));
        }
    }

    private static String scalar(String origin, String key, JsonParser p, JsonToken t)
            throws IOException, ConfigException {
        return switch (t) {
            case VALUE_STRING, VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT, VALUE_TRUE, VALUE_FALSE -> p.getText();
            case VALUE_NULL -> "";
            case START_ARRAY -> {
                // upstream writes list-valued settings as one string, but accept an array of scalars too
                StringBuilder sb = new StringBuilder();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    if (!sb.isEmpty()) {
                        sb.append(',');
                    }
                    sb.append(p.getText());
                }
                yield sb.toString();
            }
            default ->
                throw new ConfigException(origin + ": value of '" + key + "' must be a string, number or boolean");
        };
    }
}
