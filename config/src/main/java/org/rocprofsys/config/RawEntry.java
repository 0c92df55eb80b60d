package org.rocprofsys.config;

/**
 * One {@code KEY = VALUE} assignment as read from a source, before it is checked against the registry.
 *
 * @param key    the key as written (env name or short name)
 * @param value  the value after variable substitution
 * @param origin where it was read, e.g. {@code /home/u/app.cfg:12}
 */
public record RawEntry(String key, String value, String origin) {}
