package org.rocprofsys.config.cli;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * A command line of one of the rocprof-sys tools, built through picocli's programmatic model
 * (no annotation scanning, which keeps start-up short) with options in named groups, and help
 * rendered in the layout of upstream's timemory argparse:
 * {@code [tool] Usage: tool [ --opt (count: N, dtype: T) ... ]} then {@code Options:} with
 * {@code [GROUP OPTIONS]} headers.
 */
public final class ToolCli {
    private final String toolName;
    private final String description;
    private final CommandSpec spec;
    private final Map<String, List<OptionSpec>> groups = new LinkedHashMap<>();
    private final Map<String, String> groupDescriptions = new LinkedHashMap<>();
    // identity maps: picocli's specs change their hash codes when added to a command
    private final Map<OptionSpec, String> dataTypes = new IdentityHashMap<>();
    /** Kept here, not in picocli's model, which would treat the '%' of '%tag%' as a format. */
    private final Map<Object, String> descriptions = new IdentityHashMap<>();

    public ToolCli(String toolName, String description) {
        this.toolName = toolName;
        this.description = description;
        this.spec = CommandSpec.create().name(toolName);
        spec.parser().caseInsensitiveEnumValuesAllowed(true);
        spec.parser().posixClusteredShortOptionsAllowed(false);
        spec.parser().allowSubcommandsAsOptionParameters(true);
        option(
                null,
                "bool",
                "Shows this page",
                OptionSpec.builder("-h", "-?", "--help").usageHelp(true));
        option(
                null,
                "bool",
                "Prints the version and exits",
                OptionSpec.builder("--version").versionHelp(true));
    }

    /** A line shown after the group's {@code [NAME OPTIONS]} header, as timemory's argparse does. */
    public void describeGroup(String group, String description) {
        groupDescriptions.put(group, description);
    }

    /** A boolean option; like upstream it may take an explicit value ({@code --trace off}). */
    public OptionSpec flag(String group, String description, String... names) {
        return option(
                group,
                "bool",
                description,
                OptionSpec.builder(names).arity("0..1").type(String.class).fallbackValue("true"));
    }

    /** An option taking values; {@code arity} as picocli ("1", "0..1", "1..*", ...). */
    public OptionSpec valued(
            String group, String dtype, String arity, String paramLabel, String description, String... names) {
        OptionSpec.Builder b = OptionSpec.builder(names).arity(arity).paramLabel(paramLabel);
        if (arity.endsWith("*") || (!arity.equals("0..1") && !arity.equals("1"))) {
            b.type(List.class).auxiliaryTypes(String.class);
        } else {
            b.type(String.class);
        }
        if (arity.startsWith("0")) {
            b.fallbackValue("");
        }
        return option(group, dtype, description, b);
    }

    public PositionalParamSpec positional(String paramLabel, String description) {
        PositionalParamSpec p = PositionalParamSpec.builder()
                .arity("0..*")
                .paramLabel(paramLabel)
                .type(List.class)
                .auxiliaryTypes(String.class)
                .build();
        spec.addPositional(p);
        descriptions.put(p, description);
        return p;
    }

    private OptionSpec option(String group, String dtype, String description, OptionSpec.Builder builder) {
        OptionSpec o = builder.build();
        descriptions.put(o, description);
        spec.addOption(o);
        groups.computeIfAbsent(group, g -> new ArrayList<>()).add(o);
        dataTypes.put(o, dtype);
        return o;
    }

    public CommandLine commandLine() {
        CommandLine cl = new CommandLine(spec);
        cl.setUnmatchedOptionsArePositionalParams(false);
        return cl;
    }

    public CommandSpec spec() {
        return spec;
    }

    public String help() {
        StringBuilder sb = new StringBuilder();
        sb.append('[').append(toolName).append("] Usage: ").append(toolName).append(" [");
        for (OptionSpec o : spec.options()) {
            sb.append(' ')
                    .append(o.longestName())
                    .append(" (")
                    .append(countText(o))
                    .append(", dtype: ")
                    .append(dataTypes.get(o))
                    .append(')');
        }
        sb.append(" ]\n\n");
        if (!description.isEmpty()) {
            sb.append(description).append("\n\n");
        }
        sb.append("Options:\n");
        for (Map.Entry<String, List<OptionSpec>> g : groups.entrySet()) {
            if (g.getKey() != null) {
                String header = "    [" + g.getKey().toUpperCase() + " OPTIONS]";
                String about = groupDescriptions.getOrDefault(g.getKey(), "");
                sb.append('\n').append(header);
                if (!about.isEmpty()) {
                    sb.append(" ".repeat(Math.max(2, 36 - header.length()))).append(about);
                }
                sb.append("\n\n");
            }
            for (OptionSpec o : g.getValue()) {
                String names = String.join(", ", o.names());
                if (o.arity().max() > 0 && !dataTypes.get(o).equals("bool")) {
                    names += " " + o.paramLabel();
                }
                String desc = descriptions.get(o);
                sb.append("    ").append(names);
                int pad = 36 - 4 - names.length();
                sb.append(pad > 0 ? " ".repeat(pad) : "\n" + " ".repeat(36));
                sb.append(desc).append(" (").append(countText(o)).append(")\n");
            }
        }
        for (PositionalParamSpec p : spec.positionalParameters()) {
            sb.append("\n    ")
                    .append(p.paramLabel())
                    .append(' ')
                    .append(descriptions.get(p))
                    .append('\n');
        }
        return sb.toString();
    }

    private static String countText(OptionSpec o) {
        if (o.usageHelp() || o.versionHelp()) {
            return "count: 0";
        }
        var arity = o.arity();
        if (arity.isUnspecified() || arity.max() == arity.min()) {
            return "count: " + arity.min();
        }
        if (arity.max() == Integer.MAX_VALUE) {
            return "min: " + arity.min();
        }
        return "max: " + arity.max();
    }
}
