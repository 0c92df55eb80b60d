package org.rocprofsys.config;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the settings given a value that this build does not act on: every setting whose value did
 * not come from its default, differs from its default, and is not honoured by the registry's
 * {@code honoured} flag. Legacy names are left out (the loader already says they have no effect),
 * and deprecated names too (their value went to the setting they name, which is checked).
 */
public final class UnsupportedSettings {
    private UnsupportedSettings() {}

    public static List<UnsupportedUse> of(Settings settings) {
        List<UnsupportedUse> out = new ArrayList<>();
        for (SettingValue v : settings.all()) {
            SettingDefinition d = v.definition();
            if (!v.isSet() || d.legacy() || d.aliasOf().isPresent()) {
                continue;
            }
            if (isDefault(d, v.value()) || d.support().honours(v.value())) {
                continue;
            }
            out.add(new UnsupportedUse(d.envName(), v.value(), v.origin()));
        }
        return out;
    }

    /** The value equals the static default in the setting's type (so {@code 0} is {@code 0.0}, {@code on} is {@code true}). */
    static boolean isDefault(SettingDefinition d, String value) {
        String def = d.defaultValue();
        try {
            return switch (d.type()) {
                case BOOL -> SettingType.parseBool(def) == SettingType.parseBool(value);
                case STRING -> def.strip().equals(value.strip());
                default ->
                    new BigDecimal(def.strip().replace("+", ""))
                                    .compareTo(new BigDecimal(value.strip().replace("+", "")))
                            == 0;
            };
        } catch (IllegalArgumentException e) {
            return def.strip().equals(value.strip());
        }
    }
}
