package org.rocprofsys.config;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The resolved settings of one invocation: every registry entry with its winning value and source.
 * Built by {@link SettingsLoader}; immutable.
 */
public final class Settings {
    private final SettingsRegistry registry;
    private final Map<String, SettingValue> values;
    private final List<String> warnings;
    private final Map<String, String> exportedEnvironment;
    private final List<Path> configFilesRead;
    private final List<UnsupportedUse> unsupportedOptions;

    Settings(
            SettingsRegistry registry,
            Map<String, SettingValue> values,
            List<String> warnings,
            Map<String, String> exportedEnvironment,
            List<Path> configFilesRead,
            List<UnsupportedUse> unsupportedOptions) {
        this.registry = registry;
        this.values = Map.copyOf(values);
        this.warnings = List.copyOf(warnings);
        this.exportedEnvironment = Map.copyOf(exportedEnvironment);
        this.configFilesRead = List.copyOf(configFilesRead);
        this.unsupportedOptions = List.copyOf(unsupportedOptions);
    }

    public SettingsRegistry registry() {
        return registry;
    }

    /** The value of a setting, by env name or short name; throws for a name not in the registry. */
    public SettingValue value(String key) {
        SettingDefinition def =
                registry.find(key).orElseThrow(() -> new IllegalArgumentException("no setting named " + key));
        return values.get(def.envName());
    }

    public String get(String key) {
        return value(key).value();
    }

    public boolean bool(String key) {
        return SettingType.parseBool(get(key));
    }

    public double number(String key) {
        return Double.parseDouble(get(key).strip());
    }

    public long integer(String key) {
        return Long.parseLong(get(key).strip().replace("+", ""));
    }

    public Collection<SettingValue> all() {
        return registry.all().stream().map(d -> values.get(d.envName())).toList();
    }

    /** Deprecation notices and ignored keys, for the caller to print once. */
    public List<String> warnings() {
        return warnings;
    }

    /** Variables that config files exported with {@code $env:NAME = VALUE} and that the environment lacked. */
    public Map<String, String> exportedEnvironment() {
        return exportedEnvironment;
    }

    public List<Path> configFilesRead() {
        return configFilesRead;
    }

    /**
     * What this invocation asked for that this build does not act on: the command-line options the
     * tool reported to the loader, then the settings with an unhonoured non-default value. Each tool
     * prints these once (one warning each) and the run writes them to metadata.json.
     */
    public List<UnsupportedUse> unsupported() {
        List<UnsupportedUse> all = new java.util.ArrayList<>(unsupportedOptions);
        all.addAll(UnsupportedSettings.of(this));
        return List.copyOf(all);
    }
}
