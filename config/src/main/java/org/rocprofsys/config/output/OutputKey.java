package org.rocprofsys.config.output;

/**
 * One placeholder as {@code rocprof-sys-avail --list-keys} shows it.
 *
 * @param key         the placeholder text, e.g. {@code %pid%} or the shorthand {@code %p}
 * @param value       what it expands to for the context it was listed for
 * @param description the one-line explanation printed beside it
 */
public record OutputKey(String key, String value, String description) {}
