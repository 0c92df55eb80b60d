package org.rocprofsys.run.cli;

import org.rocprofsys.config.SettingsRegistry;
import org.rocprofsys.config.Version;
import org.rocprofsys.config.cli.ToolCli;

/**
 * The texts rocprof-sys-run prints without running anything: {@code --help} (stdout, exit 0),
 * {@code --version} (stdout, exit 0) and the bare usage line (stderr, exit 1, for no arguments or
 * no command).
 */
public final class RunHelp {
    static final String TOOL = "rocprof-sys-run";
    private static final String DESCRIPTION = "    Command line interface to rocprof-sys configuration.";

    private RunHelp() {}

    /** {@code Usage: rocprof-sys-run <OPTIONS> -- <COMMAND> <ARGS>}. */
    public static String usageLine() {
        return usageLine(TOOL);
    }

    /** {@code rocprof-sys-run v<version>}, as upstream's {@code enable_version} prints it (without build properties). */
    public static String versionLine() {
        return versionLine(TOOL);
    }

    /** The help text for the standard settings registry. */
    public static String text() {
        return text(RunOptions.standard());
    }

    /** The help text with the generated options of {@code registry}. */
    public static String text(SettingsRegistry registry) {
        return text(registry == SettingsRegistry.standard() ? RunOptions.standard() : RunOptions.build(registry));
    }

    /** rocprof-sys-sample's help text. */
    public static String sampleText(String tool) {
        return text(RunOptions.sample(), tool, "    Command line interface to rocprof-sys call-stack sampling.");
    }

    /** {@code Usage: <tool> <OPTIONS> -- <COMMAND> <ARGS>}. */
    public static String usageLine(String tool) {
        return "Usage: " + tool + " <OPTIONS> -- <COMMAND> <ARGS>";
    }

    /** {@code <tool> v<version>}. */
    public static String versionLine(String tool) {
        String v = Version.STRING;
        return tool + " " + (v.startsWith("v") ? v : "v" + v);
    }

    static String text(RunOptions table) {
        return text(table, TOOL, DESCRIPTION);
    }

    static String text(RunOptions table, String tool, String description) {
        ToolCli cli = new ToolCli(tool, description);
        table.groups.forEach(cli::describeGroup);
        for (OptionDef o : table.options) {
            String[] names = o.names().toArray(String[]::new);
            String desc = o.description();
            if (!o.requires().isEmpty()) {
                desc += " (requires "
                        + String.join(
                                " or ",
                                o.requires().stream()
                                        .map(k -> table.byKey.get(k).label())
                                        .toList()) + ")";
            }
            if (o.isFlag() && o.max() == 1 && o.count() < 0) {
                cli.flag(o.group(), desc, names);
            } else {
                cli.valued(o.group(), o.dtype(), arity(o), paramLabel(o), desc, names);
            }
        }
        StringBuilder sb = new StringBuilder(cli.help());
        if (sb.charAt(sb.length() - 1) != '\n') {
            sb.append('\n');
        }
        sb.append('\n').append(usageLine(tool)).append('\n');
        return sb.toString();
    }

    private static String arity(OptionDef o) {
        if (o.count() >= 0) {
            return Integer.toString(o.count());
        }
        int min = Math.max(o.min(), 0);
        return min + ".." + (o.max() >= 0 ? Integer.toString(o.max()) : "*");
    }

    private static String paramLabel(OptionDef o) {
        if (o.choices().isEmpty()) {
            String t = o.dtype();
            return t.startsWith("[") || t.contains(" ") ? t : "<" + t + ">";
        }
        StringBuilder sb = new StringBuilder("[ ");
        for (int i = 0; i < o.choices().size(); i++) {
            String c = o.choices().get(i);
            sb.append(i == 0 ? "" : " | ").append(c);
            if (o.choiceAliases().containsKey(c)) {
                sb.append(" (")
                        .append(String.join("|", o.choiceAliases().get(c)))
                        .append(')');
            }
        }
        return sb.append(" ]").toString();
    }
}
