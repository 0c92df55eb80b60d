package org.rocprofsys.config.file;

import org.rocprofsys.config.SettingValue;

/**
 * One setting as a generated config file holds it.
 *
 * @param setting  the resolved setting
 * @param value    the value to write ({@code CONFIG_FILE} is always written empty)
 */
public record ConfigEntry(SettingValue setting, String value) {}
