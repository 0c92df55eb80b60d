package org.rocprofsys.tracetest;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.rocprofsys.config.ConfigException;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;

/** The standard settings loaded for a test from {@code env} alone, HOME under {@code dir} unless given. */
public final class TestSettings {
    private TestSettings() {}

    public static Settings load(Path dir, Map<String, String> env) throws ConfigException {
        Map<String, String> e = new HashMap<>(env);
        e.putIfAbsent("HOME", dir.resolve("home").toString());
        return new SettingsLoader(SettingsRegistry.standard(), e, dir).load();
    }
}
