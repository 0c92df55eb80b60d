package org.rocprofsys.config;

/** A configuration problem the user must fix: the message names the setting, file or value. */
public final class ConfigException extends Exception {
    public ConfigException(String message) {
        super(message);
    }
}
