package org.rocprofsys.config.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.rocprofsys.config.ConfigException;

/** Reads a config file in the format its extension names: {@code .json}, {@code .xml}, else text. */
public final class ConfigFiles {
    private ConfigFiles() {}

    public static ConfigFileContents read(
            Path file, Map<String, String> environment, Function<String, Optional<String>> settings)
            throws ConfigException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException("Error reading configuration file: " + file + " (" + e.getMessage() + ")");
        }
        String name = file.toString();
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".json")) {
            return JsonConfigReader.read(name, text, environment, settings);
        }
        if (lower.endsWith(".xml")) {
            return XmlConfigReader.read(name, text, environment, settings);
        }
        return CfgFileReader.read(name, text.lines().toList(), environment, settings);
    }
}
