package org.rocprofsys.config;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SortedSet;

/**
 * One entry of the settings registry: what rocprof-sys declares for a {@code ROCPROFSYS_*} name.
 *
 * @param envName      the environment-variable name, e.g. {@code ROCPROFSYS_TRACE}
 * @param type         the value type
 * @param defaultValue the static default (dynamic and coupled defaults are applied by {@link Defaults})
 * @param categories   the categories as upstream declares them
 * @param choices      the allowed values, empty when any value of the type is allowed
 * @param hidden       hidden from avail listings and generated configs (upstream's disabled settings)
 * @param aliasOf      for a deprecated or legacy name: the setting that takes its value
 * @param legacy       a name only the Oct 2024 standalone release had: accepted, never listed
 * @param description  one-line description
 * @param support      whether this build acts on the setting (the {@code honoured} flag)
 */
public record SettingDefinition(
        String envName,
        SettingType type,
        String defaultValue,
        SortedSet<String> categories,
        List<String> choices,
        boolean hidden,
        Optional<String> aliasOf,
        boolean legacy,
        String description,
        SettingSupport support) {

    public static final String PREFIX = "ROCPROFSYS_";

    /** The short name: the environment name lower-cased without its prefix ({@code trace}). */
    public String name() {
        return envName.substring(PREFIX.length()).toLowerCase(Locale.ROOT);
    }

    public boolean deprecated() {
        return categories.contains("deprecated");
    }

    public boolean advanced() {
        return categories.contains("advanced");
    }

    public boolean inCategory(String category) {
        return categories.contains(category);
    }
}
