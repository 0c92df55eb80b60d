package org.rocprofsys.run.cli;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.rocprofsys.config.SettingDefinition;
import org.rocprofsys.config.SettingType;
import org.rocprofsys.config.SettingsRegistry;

/** The state the option actions work on while one command line is processed. */
final class ParseContext {
    private static final Pattern DOUBLE = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");

    final SettingsRegistry registry;
    final RunArguments.Libraries libraries;
    /** Values of every option found, by option. */
    final Map<OptionDef, List<String>> found;

    final Map<String, OptionDef> byKey;
    final List<EnvUpdate> updates = new ArrayList<>();
    /** The option whose update last set each variable (a removal forgets it), for the settings' origins. */
    final Map<String, String> setBy = new LinkedHashMap<>();

    int verbose;
    boolean fork;
    boolean monochrome;
    Optional<String> launcher = Optional.empty();

    ParseContext(
            SettingsRegistry registry,
            RunArguments.Libraries libraries,
            Map<OptionDef, List<String>> found,
            Map<String, OptionDef> byKey) {
        this.registry = registry;
        this.libraries = libraries;
        this.found = found;
        this.byKey = byKey;
    }

    boolean exists(String key) {
        OptionDef o = byKey.get(key);
        return o != null && found.containsKey(o);
    }

    List<String> values(String key) {
        OptionDef o = byKey.get(key);
        return o == null ? List.of() : found.getOrDefault(o, List.of());
    }

    /** Upstream {@code p.get<bool>(key)}: false when absent, true when given without a value. */
    boolean flag(String key) throws RunUsageException {
        OptionDef o = byKey.get(key);
        if (o == null || !found.containsKey(o)) {
            return false;
        }
        return bool(o, found.get(o));
    }

    void set(OptionDef opt, String envName, String value) throws RunUsageException {
        add(opt, new EnvUpdate(envName, validated(opt, envName, value), EnvUpdate.Mode.REPLACE));
    }

    void weak(OptionDef opt, String envName, String value) throws RunUsageException {
        add(opt, new EnvUpdate(envName, validated(opt, envName, value), EnvUpdate.Mode.WEAK));
    }

    void add(OptionDef opt, EnvUpdate update) {
        updates.add(update);
        if (update.mode() == EnvUpdate.Mode.REMOVE) {
            setBy.remove(update.name());
        } else {
            setBy.put(update.name(), opt.label());
        }
    }

    /** Checks a value against the registry's type and choices, where the variable is a known setting. */
    String validated(OptionDef opt, String envName, String value) throws RunUsageException {
        Optional<SettingDefinition> def =
                envName.startsWith(SettingDefinition.PREFIX) ? registry.find(envName) : Optional.empty();
        if (def.isEmpty()) {
            return value;
        }
        SettingDefinition d = def.get();
        try {
            d.type().normalize(value);
        } catch (IllegalArgumentException e) {
            throw new RunUsageException(
                    opt.label(),
                    "invalid value '" + value + "' for " + opt.label() + " (" + d.envName() + " is "
                            + d.type().displayName() + "): " + e.getMessage());
        }
        if (!d.choices().isEmpty() && !value.isBlank()) {
            for (String token : value.split("[ ,;]+")) {
                if (!token.isEmpty() && !d.choices().contains(token)) {
                    throw new RunUsageException(
                            opt.label(),
                            "invalid value '" + value + "' for " + opt.label() + ": '" + token + "' is not one of "
                                    + String.join(", ", d.choices()));
                }
            }
        }
        return value;
    }

    /** A boolean option value: none means true; numbers are true unless zero (timemory {@code get_bool}). */
    static boolean bool(OptionDef opt, List<String> values) throws RunUsageException {
        if (values.isEmpty()) {
            return true;
        }
        String v = String.join(" ", values).strip();
        if (!v.isEmpty() && v.chars().allMatch(Character::isDigit)) {
            return !v.chars().allMatch(c -> c == '0');
        }
        try {
            return SettingType.parseBool(v);
        } catch (IllegalArgumentException e) {
            throw new RunUsageException(
                    opt.label(), "invalid value '" + v + "' for " + opt.label() + ": " + e.getMessage());
        }
    }

    /** A floating-point option value, written back the way C++ streams print a double ({@code %g}). */
    static String dbl(OptionDef opt, List<String> values) throws RunUsageException {
        String v = String.join(" ", values).strip();
        if (!DOUBLE.matcher(v).matches()) {
            throw new RunUsageException(
                    opt.label(),
                    "invalid value '" + v + "' for " + opt.label() + ": a floating-point number is required");
        }
        return formatDouble(Double.parseDouble(v));
    }

    /** An integer option value, in plain decimal. */
    static String integer(OptionDef opt, List<String> values, long min, long max) throws RunUsageException {
        String v = String.join(" ", values).strip();
        long n;
        try {
            if (!INTEGER.matcher(v).matches()) {
                throw new NumberFormatException();
            }
            n = Long.parseLong(v.startsWith("+") ? v.substring(1) : v);
        } catch (NumberFormatException e) {
            throw new RunUsageException(
                    opt.label(), "invalid value '" + v + "' for " + opt.label() + ": an integer is required");
        }
        if (n < min || n > max) {
            throw new RunUsageException(
                    opt.label(),
                    "invalid value '" + v + "' for " + opt.label() + ": out of range [" + min + ", " + max + "]");
        }
        return Long.toString(n);
    }

    /**
     * A double as {@code std::ostream << double} writes it with default flags: {@code %g} with six
     * significant digits and no trailing zeros (1.0 -> 1, 1.0e-12 -> 1e-12, 1e6 -> 1e+06).
     */
    static String formatDouble(double v) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (v == 0) {
            return (1 / v < 0) ? "-0" : "0";
        }
        BigDecimal bd = new BigDecimal(v).round(new MathContext(6, RoundingMode.HALF_EVEN));
        int exponent = bd.precision() - bd.scale() - 1;
        if (exponent < -4 || exponent >= 6) {
            BigDecimal mantissa = bd.movePointLeft(exponent).stripTrailingZeros();
            String e = Integer.toString(Math.abs(exponent));
            return mantissa.toPlainString() + "e" + (exponent < 0 ? "-" : "+") + (e.length() < 2 ? "0" + e : e);
        }
        return bd.stripTrailingZeros().toPlainString();
    }
}
