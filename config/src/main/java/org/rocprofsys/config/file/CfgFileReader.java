package org.rocprofsys.config.file;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.rocprofsys.config.ConfigException;
import org.rocprofsys.config.RawEntry;

/**
 * The text config format: one {@code KEY = VALUE} per line, {@code #} comments, and variables
 * ({@code $NAME = VALUE} defines one, {@code $env:NAME = VALUE} also exports it).
 */
public final class CfgFileReader {
    private CfgFileReader() {}

    public static ConfigFileContents read(
            String fileName,
            List<String> lines,
            Map<String, String> environment,
            Function<String, Optional<String>> settings)
            throws ConfigException {
        Map<String, String> variables = new LinkedHashMap<>();
        Map<String, String> exported = new LinkedHashMap<>();
        Substitution substitution = new Substitution(environment, variables, settings);
        List<RawEntry> entries = new ArrayList<>();
        int lineNo = 0;
        for (String raw : lines) {
            lineNo++;
            String line = stripComment(raw).strip();
            if (line.isEmpty()) {
                continue;
            }
            String origin = fileName + ":" + lineNo;
            String key;
            String value;
            int eq = line.indexOf('=');
            if (eq >= 0) {
                key = line.substring(0, eq).strip();
                value = line.substring(eq + 1).strip();
            } else {
                // upstream accepts "KEY VALUE" and "KEY,VALUE" lines too
                String[] parts = line.split("[ \t,;=]+", 2);
                key = parts[0];
                value = parts.length > 1 ? parts[1].strip() : "";
            }
            if (key.isEmpty()) {
                throw new ConfigException(origin + ": missing setting name before '='");
            }
            value = substitution.apply(value);
            if (key.startsWith("$env:")) {
                String name = key.substring("$env:".length());
                if (!name.matches("[A-Z][A-Z0-9_]+")) {
                    throw new ConfigException(origin + ": invalid environment variable name '" + name + "'");
                }
                variables.put("env:" + name, environment.getOrDefault(name, value));
                variables.put(name, variables.get("env:" + name));
                exported.putIfAbsent(name, value);
            } else if (key.startsWith("$")) {
                String name = key.substring(1);
                if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                    throw new ConfigException(origin + ": invalid variable name '" + key + "'");
                }
                variables.put(name, value);
            } else {
                entries.add(new RawEntry(key, value, origin));
            }
        }
        return new ConfigFileContents(List.copyOf(entries), Map.copyOf(exported));
    }

    /** Drops a {@code #} comment; a {@code #} inside a value counts only when preceded by a blank. */
    private static String stripComment(String line) {
        String t = line.stripLeading();
        if (t.startsWith("#")) {
            return "";
        }
        for (int i = 1; i < line.length(); i++) {
            if (line.charAt(i) == '#' && Character.isWhitespace(line.charAt(i - 1))) {
                return line.substring(0, i);
            }
        }
        return line;
    }
}
