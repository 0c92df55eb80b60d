package org.rocprofsys.run.cli;

import java.util.List;
import java.util.Map;
import org.rocprofsys.config.SettingDefinition;

/**
 * One option of rocprof-sys-run, with the value counts of timemory's argparse ({@link #ANY} = not
 * constrained): {@code count} exact, else {@code min}..{@code max}.
 *
 * @param names         as written on the command line, e.g. {@code -v}, {@code --verbose}
 * @param group         help group key (ToolCli shows it as {@code [KEY OPTIONS]})
 * @param dtype         the help's data type
 * @param count         exact number of values, or ANY
 * @param min           least number of values, or ANY
 * @param max           most values, or ANY
 * @param choices       allowed values (checked one value at a time, aliases first mapped to their choice)
 * @param choiceAliases choice -> its aliases
 * @param requires      the option is only valid with one of these (keys without dashes)
 * @param conflicts     the option is invalid together with any of these (keys without dashes)
 * @param description   help text
 * @param setting       for an option generated from a setting: that setting, else null
 * @param action        what the option does once parsed
 */
record OptionDef(
        List<String> names,
        String group,
        String dtype,
        int count,
        int min,
        int max,
        List<String> choices,
        Map<String, List<String>> choiceAliases,
        List<String> requires,
        List<String> conflicts,
        String description,
        SettingDefinition setting,
        Action action) {

    static final int ANY = -1;

    /** The effect of an option found on the command line. */
    @FunctionalInterface
    interface Action {
        void run(ParseContext ctx, OptionDef self, List<String> values) throws RunUsageException;
    }

    /** The names without leading dashes: the keys upstream looks options up by. */
    List<String> keys() {
        return names.stream().map(OptionDef::stripDashes).toList();
    }

    /** Upstream's display name: all names joined with {@code /}, e.g. {@code -v/--verbose}. */
    String label() {
        return String.join("/", names);
    }

    boolean isFlag() {
        return dtype.equals("bool") || dtype.equals("boolean");
    }

    static String stripDashes(String name) {
        int i = 0;
        while (i < name.length() && name.charAt(i) == '-') {
            i++;
        }
        return name.substring(i);
    }
}
