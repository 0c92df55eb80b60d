package org.rocprofsys.config;

/**
 * A resolved setting.
 *
 * @param definition the registry entry
 * @param value      the value in canonical form
 * @param source     which source won
 * @param origin     where exactly, for messages: a file and line, "environment", "command line" or "default"
 */
public record SettingValue(SettingDefinition definition, String value, ValueSource source, String origin) {
    public boolean isSet() {
        return source != ValueSource.DEFAULT;
    }
}
