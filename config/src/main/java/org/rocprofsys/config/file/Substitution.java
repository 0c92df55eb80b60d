package org.rocprofsys.config.file;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Variable references inside config-file values: {@code $env:VAR}, {@code $NAME}, {@code ${NAME}}
 * and {@code $|NAME|}. A name resolves to a config-local variable first, then to a setting of
 * that name, then to the environment; an unknown name becomes empty, as upstream.
 */
final class Substitution {
    private static final Pattern REFERENCE = Pattern.compile(
            "\\$env:([A-Z][A-Z0-9_]+)|\\$\\{([A-Za-z_][A-Za-z0-9_]*)}|\\$\\|([A-Za-z_][A-Za-z0-9_]*)\\||\\$([A-Za-z_][A-Za-z0-9_]*)");

    private final Map<String, String> environment;
    private final Map<String, String> variables;
    private final Function<String, Optional<String>> settings;

    Substitution(
            Map<String, String> environment,
            Map<String, String> variables,
            Function<String, Optional<String>> settings) {
        this.environment = environment;
        this.variables = variables;
        this.settings = settings;
    }

    String apply(String value) {
        Matcher m = REFERENCE.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement;
            if (m.group(1) != null) {
                replacement = environmentValue(m.group(1));
            } else {
                String name = m.group(2) != null ? m.group(2) : m.group(3) != null ? m.group(3) : m.group(4);
                replacement = lookup(name);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    private String environmentValue(String name) {
        String v = variables.containsKey("env:" + name) ? variables.get("env:" + name) : environment.get(name);
        return v == null ? "" : v;
    }

    private String lookup(String name) {
        if (variables.containsKey(name)) {
            return variables.get(name);
        }
        Optional<String> setting = settings.apply(name);
        if (setting.isPresent()) {
            return setting.get();
        }
        String env = environment.get(name);
        return env == null ? "" : env;
    }
}
