package org.rocprofsys.config.avail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.rocprofsys.config.ConfigException;
import org.rocprofsys.config.SettingDefinition;
import org.rocprofsys.config.SettingValue;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;
import org.rocprofsys.config.Version;
import org.rocprofsys.config.atomicfile.AtomicFile;
import org.rocprofsys.config.atomicfile.FileWriteException;
import org.rocprofsys.config.cli.ToolCli;
import org.rocprofsys.config.file.ConfigFileFormat;
import org.rocprofsys.config.output.LaunchContext;
import org.rocprofsys.config.output.OutputKey;
import org.rocprofsys.config.output.OutputKeys;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.ParseResult;

/** {@code rocprof-sys-avail}: lists settings, components and counters; writes config files (inventory §1.5). */
public final class AvailCommand {
    static final String TOOL = "rocprof-sys-avail";

    private final ToolCli cli = new ToolCli(TOOL, "");
    private final OptionSpec monochrome = cli.flag("debug", "Disable colorized output", "--monochrome");
    private final OptionSpec debug = cli.flag("debug", "Debug output", "--debug");
    private final OptionSpec verbose = cli.valued("debug", "int", "0..1", "N", "Verbose output", "--verbose");
    private final OptionSpec settingsOpt =
            cli.flag("info", "Display the runtime settings (default)", "-S", "--settings", "--print-settings");
    private final OptionSpec componentsOpt =
            cli.flag("info", "Display the available components", "-C", "--components", "--print-components");
    private final OptionSpec hwOpt =
            cli.flag("info", "Display the available hardware counters", "-H", "--hw-counters", "--print-hw-counters");
    private final OptionSpec allOpt = cli.flag("info", "Print all available info, all columns", "-a", "--all");
    private final OptionSpec advancedOpt = cli.flag("info", "Include advanced settings", "--advanced");
    private final OptionSpec listCategoriesOpt =
            cli.flag("info", "List the categories of every table", "--list-categories");
    private final OptionSpec listKeysOpt =
            cli.flag("info", "List the %key% placeholders of output file names", "--list-keys");
    private final OptionSpec expandKeysOpt =
            cli.flag("info", "Show %key% placeholders expanded to their values", "--expand-keys");
    private final OptionSpec availableOpt = cli.flag("filter", "Only show available entries", "-A", "--available");
    private final OptionSpec filterOpt = cli.valued(
            "filter",
            "string",
            "1..*",
            "REGEX",
            "Filter the names by regex (egrep); a leading ~ negates",
            "-r",
            "--filter");
    private final OptionSpec categoryFilterOpt = cli.valued(
            "filter",
            "string",
            "1..*",
            "REGEX",
            "Filter the categories by regex (egrep); a leading ~ negates",
            "-R",
            "--category-filter");
    private final OptionSpec ignoreCaseOpt = cli.flag("filter", "Regexes ignore case", "-i", "--ignore-case");
    private final OptionSpec alphabeticalOpt = cli.flag("filter", "Sort entries alphabetically", "--alphabetical");
    private final OptionSpec briefOpt = cli.flag("column", "Only the name column", "-b", "--brief");
    private final OptionSpec descriptionOpt = cli.flag("column", "Add the description column", "-d", "--description");
    private final OptionSpec stringOpt =
            cli.flag("column", "Add the string identifiers of components", "-s", "--string");
    private final OptionSpec valueOpt = cli.flag("column", "Add the data type column", "-v", "--value");
    private final OptionSpec fileNameOpt =
            cli.flag("column", "Add the output file name of components", "-f", "--filename");
    private final OptionSpec categoriesOpt = cli.valued(
            "column",
            "string",
            "0..*",
            "CATEGORY",
            "Add the categories column; with arguments, restrict to those categories"
                    + " (settings::rocprofsys, component::timing, core, ...)",
            "-c",
            "--categories");
    private final OptionSpec columnWidthOpt =
            cli.valued("display", "int", "1", "N", "Maximum width of a column", "-w", "--column-width");
    private final OptionSpec maxWidthOpt =
            cli.valued("display", "int", "1", "N", "Maximum total width of a table", "-W", "--max-total-width");
    private final OptionSpec markdownOpt = cli.flag("display", "Print tables in markdown", "-M", "--markdown");
    private final OptionSpec csvOpt = cli.flag("display", "Print tables as CSV", "--csv");
    private final OptionSpec csvSeparatorOpt =
            cli.valued("display", "string", "1", "SEP", "Separator of CSV fields (default ',')", "--csv-separator");
    private final OptionSpec generateOpt = cli.valued(
            "output",
            "string",
            "0..1",
            "FILE",
            "Write a config file with the current settings (default name rocprof-sys-config)",
            "-G",
            "--generate-config");
    private final OptionSpec configFormatOpt = cli.valued(
            "output", "string", "1..3", "FORMAT", "Formats of -G: txt json xml (default txt)", "-F", "--config-format");
    private final OptionSpec outputOpt = cli.valued(
            "output", "string", "1", "FILE", "Write the listing to FILE instead of the terminal", "-O", "--output");
    private final OptionSpec tagOpt =
            cli.valued("output", "string", "1", "TAG", "Value of %tag% in file names", "-t", "--tag");
    private final OptionSpec forceOpt = cli.flag("output", "Overwrite existing config files without asking", "--force");
    private final PositionalParamSpec regexPositional =
            cli.positional("REGEX_FILTER", "Filter both names and categories by regex");

    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, String> environment;
    private final Path workingDirectory;
    private final AvailCatalog catalog;
    private final OutputKeys outputKeys = new OutputKeys();

    AvailCommand(
            PrintStream out,
            PrintStream err,
            Map<String, String> environment,
            Path workingDirectory,
            AvailCatalog catalog) {
        this.out = out;
        this.err = err;
        this.environment = environment;
        this.workingDirectory = workingDirectory;
        this.catalog = catalog;
    }

    public static void main(String[] args) {
        AvailCommand cmd = new AvailCommand(
                System.out, System.err, System.getenv(), Path.of("").toAbsolutePath(), AvailCatalog.installed());
        int rc = cmd.run(args);
        System.out.flush();
        System.exit(rc);
    }

    int run(String[] args) {
        CommandLine commandLine = cli.commandLine();
        ParseResult pr;
        try {
            pr = commandLine.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            err.println("[" + TOOL + "] error: " + e.getMessage() + " (see " + TOOL + " --help)");
            return 1;
        }
        if (pr.isUsageHelpRequested()) {
            out.print(cli.help());
            return 0;
        }
        if (pr.isVersionHelpRequested()) {
            out.println(TOOL + " " + Version.STRING);
            return 0;
        }
        AvailOptions options;
        try {
            options = options(pr);
        } catch (IllegalArgumentException e) {
            err.println("[" + TOOL + "] error: " + e.getMessage());
            return 1;
        }
        Settings settings;
        try {
            settings = new SettingsLoader(SettingsRegistry.standard(), environment, workingDirectory).load();
        } catch (ConfigException e) {
            err.println("[" + TOOL + "] error: " + e.getMessage());
            return 1;
        }
        settings.warnings().forEach(w -> err.println("[" + TOOL + "] warning: " + w));
        LaunchContext context = launchContext(settings, options);

        if (options.generateConfig() != null) {
            try {
                new ConfigGeneration(out, err, workingDirectory, System.console() != null)
                        .generate(settings, options, context);
            } catch (ConfigException e) {
                err.println("[" + TOOL + "] error: " + e.getMessage());
                return 1;
            }
        }
        if (options.outputFile() != null) {
            ByteArrayOutputStream buffer = new ByteArrayOutputStream();
            try (PrintStream ps = new PrintStream(buffer, true, StandardCharsets.UTF_8)) {
                print(ps, options, settings, context);
            }
            try {
                Path target = workingDirectory.resolve(options.outputFile());
                Files.createDirectories(target.toAbsolutePath().getParent());
                AtomicFile.write(target, buffer.toByteArray());
            } catch (FileWriteException e) {
                err.println("[" + TOOL + "] error: " + e.getMessage());
                return 1;
            } catch (IOException e) {
                err.println("[" + TOOL + "] error: cannot write " + options.outputFile() + ": " + e.getMessage());
                return 1;
            }
            out.println("[" + TOOL + "] Outputting '" + workingDirectory.resolve(options.outputFile()) + "'...");
        } else {
            print(out, options, settings, context);
        }
        return 0;
    }

    private LaunchContext launchContext(Settings settings, AvailOptions options) {
        LaunchContext ctx = LaunchContext.current(
                List.of(TOOL), environment, key -> settings.registry().find(key).map(d -> settings.get(d.envName())));
        return options.tag() == null ? ctx : ctx.withTag(options.tag());
    }

    private void print(PrintStream ps, AvailOptions o, Settings settings, LaunchContext context) {
        boolean first = true;
        if (o.listCategories()) {
            printCategories(ps, settings);
            first = false;
        }
        if (o.listKeys()) {
            if (!first) {
                ps.println();
            }
            printKeys(ps, o, context);
            first = false;
        }
        TableFormat format = o.format();
        if (o.components()) {
            separate(ps, first);
            componentTable(o).print(ps, format, o.csvSeparator(), o.columnWidth(), o.maxTotalWidth());
            first = false;
        }
        if (o.settings()) {
            separate(ps, first);
            settingsTable(o, settings, context).print(ps, format, o.csvSeparator(), o.columnWidth(), o.maxTotalWidth());
            first = false;
        }
        if (o.hardwareCounters()) {
            separate(ps, first);
            counterTable(o).print(ps, format, o.csvSeparator(), o.columnWidth(), o.maxTotalWidth());
        }
    }

    private static void separate(PrintStream ps, boolean first) {
        if (!first) {
            ps.println();
        }
    }

    private void printCategories(PrintStream ps, Settings settings) {
        ps.println("Categories:");
        catalog.components().stream()
                .map(AvailableComponent::category)
                .distinct()
                .sorted()
                .forEach(c -> ps.println(" " + CategorySelection.COMPONENT + "::" + c));
        catalog.hardwareCounters().stream()
                .map(HardwareCounter::category)
                .distinct()
                .sorted()
                .forEach(c -> ps.println(" " + CategorySelection.HW_COUNTERS + "::" + c));
        settings.registry().categories().forEach(c -> ps.println(" " + CategorySelection.SETTINGS + "::" + c));
    }

    private void printKeys(PrintStream ps, AvailOptions o, LaunchContext context) {
        ps.println("Output Keys:");
        List<OutputKey> keys = outputKeys.list(context);
        int width = keys.stream().mapToInt(k -> k.key().length()).max().orElse(0);
        for (OutputKey k : keys) {
            String key = o.format() == TableFormat.MARKDOWN ? "`" + k.key() + "`" : k.key();
            StringBuilder line = new StringBuilder("    ")
                    .append(key)
                    .append(" ".repeat(Math.max(0, width - k.key().length())))
                    .append("  ::  ");
            if (o.expandKeys()) {
                line.append(k.value()).append("  ::  ");
            }
            ps.println(line.append(k.description()));
        }
    }

    private Table settingsTable(AvailOptions o, Settings settings, LaunchContext context) {
        boolean full = o.all();
        List<Table.Column<SettingValue>> columns = List.of(
                new Table.Column<>(
                        "ENVIRONMENT VARIABLE", true, v -> v.definition().envName()),
                new Table.Column<>(
                        "VALUE",
                        full || !o.brief(),
                        v -> o.expandKeys() ? outputKeys.expand(v.value(), context) : v.value()),
                new Table.Column<>(
                        "DATA TYPE",
                        full || o.value(),
                        v -> v.definition().type().displayName()),
                new Table.Column<>(
                        "DESCRIPTION",
                        full || o.description(),
                        v -> v.definition().description()),
                new Table.Column<>(
                        "CATEGORIES",
                        full || o.showCategories(),
                        v -> String.join(", ", v.definition().categories())));
        return sorted(Table.of(columns, settings.all(), v -> {
            SettingDefinition d = v.definition();
            return !(d.hidden() || d.legacy() || (d.advanced() && !o.advanced() && !o.all()))
                    && filtersAccept(o, CategorySelection.SETTINGS, d.envName(), d.categories());
        }));
    }

    private Table componentTable(AvailOptions o) {
        boolean full = o.all();
        List<Table.Column<AvailableComponent>> columns = List.of(
                new Table.Column<>("COMPONENT", true, AvailableComponent::name),
                new Table.Column<>("AVAILABLE", showAvailable(o), c -> Boolean.toString(c.available())),
                new Table.Column<>("VALUE_TYPE", full || o.value(), AvailableComponent::valueType),
                new Table.Column<>("STRING_IDS", full || o.stringIds(), AvailableComponent::stringIds),
                new Table.Column<>("FILENAME", full || o.fileName(), AvailableComponent::fileName),
                new Table.Column<>("DESCRIPTION", full || o.description(), AvailableComponent::description),
                new Table.Column<>("CATEGORY", full || o.showCategories(), AvailableComponent::category));
        return sorted(Table.of(
                columns,
                catalog.components(),
                c -> (!o.availableOnly() || c.available())
                        && filtersAccept(o, CategorySelection.COMPONENT, c.name(), List.of(c.category()))));
    }

    private Table counterTable(AvailOptions o) {
        List<Table.Column<HardwareCounter>> columns = List.of(
                new Table.Column<>("HARDWARE COUNTER", true, HardwareCounter::name),
                new Table.Column<>("DEVICE", true, HardwareCounter::device),
                new Table.Column<>("AVAILABLE", showAvailable(o), h -> Boolean.toString(h.available())),
                new Table.Column<>("DESCRIPTION", o.all() || o.description(), HardwareCounter::description));
        return Table.of(
                columns,
                catalog.hardwareCounters(),
                h -> (!o.availableOnly() || h.available())
                        && filtersAccept(o, CategorySelection.HW_COUNTERS, h.name(), List.of(h.category())));
    }

    /** The AVAILABLE column of components and counters: unless brief or available-only (all shows it). */
    private static boolean showAvailable(AvailOptions o) {
        return o.all() || !(o.brief() || o.availableOnly());
    }

    /** Rows are listed by name, as upstream does for settings and components. */
    private static Table sorted(Table t) {
        return t.sortedBy(Comparator.comparing(row -> row.get(0)));
    }

    /**
     * Whether a row of {@code table} named {@code name} in {@code categories} passes the name and
     * category filters, the category selection and the positional filter.
     */
    private static boolean filtersAccept(
            AvailOptions o, String table, String name, java.util.Collection<String> categories) {
        return o.nameFilter().matches(name)
                && o.categoryFilter().matchesAny(categories)
                && o.categories().accepts(table, categories)
                && positionalMatches(o, name, categories);
    }

    private static boolean positionalMatches(AvailOptions o, String name, java.util.Collection<String> categories) {
        if (o.positionalFilter().isEmpty()) {
            return true;
        }
        List<String> all = new ArrayList<>(categories);
        all.add(name);
        return o.positionalFilter().matchesAny(all);
    }

    private AvailOptions options(ParseResult pr) {
        boolean all = bool(pr, allOpt);
        List<String> cats = pr.hasMatchedOption(categoriesOpt) ? list(pr, categoriesOpt) : List.of();
        CategorySelection categories = CategorySelection.of(cats);
        boolean components = bool(pr, componentsOpt) || categories.namesTable(CategorySelection.COMPONENT);
        boolean hw = bool(pr, hwOpt) || categories.namesTable(CategorySelection.HW_COUNTERS);
        boolean settingsTable = bool(pr, settingsOpt) || categories.namesTable(CategorySelection.SETTINGS);
        boolean listCategories = bool(pr, listCategoriesOpt);
        boolean listKeys = bool(pr, listKeysOpt);
        boolean generate = pr.hasMatchedOption(generateOpt);
        if (all) {
            components = hw = settingsTable = true;
        } else if (!components && !hw && !settingsTable && !listCategories && !listKeys && !generate) {
            settingsTable = true;
        }
        boolean ignoreCase = bool(pr, ignoreCaseOpt);
        TableFormat format =
                bool(pr, csvOpt) ? TableFormat.CSV : bool(pr, markdownOpt) ? TableFormat.MARKDOWN : TableFormat.TEXT;
        List<ConfigFileFormat> formats = pr.hasMatchedOption(configFormatOpt)
                ? list(pr, configFormatOpt).stream()
                        .map(ConfigFileFormat::fromOption)
                        .distinct()
                        .sorted()
                        .toList()
                : List.of(ConfigFileFormat.TEXT);
        String generateName = null;
        if (generate) {
            String v = pr.matchedOptionValue(generateOpt.longestName(), "");
            generateName = v.isBlank() ? "rocprof-sys-config" : v;
        }
        List<String> positional = pr.matchedPositionals().isEmpty()
                ? List.of()
                : pr.matchedPositional(0).getValue();
        return new AvailOptions(
                settingsTable,
                components,
                hw,
                all,
                bool(pr, advancedOpt),
                listCategories,
                listKeys,
                bool(pr, expandKeysOpt),
                bool(pr, availableOpt),
                NameFilter.of(list(pr, filterOpt), ignoreCase),
                NameFilter.of(list(pr, categoryFilterOpt), ignoreCase),
                NameFilter.of(positional, ignoreCase),
                bool(pr, briefOpt),
                bool(pr, descriptionOpt),
                bool(pr, stringOpt),
                bool(pr, valueOpt),
                bool(pr, fileNameOpt),
                pr.hasMatchedOption(categoriesOpt) && categories.isEmpty(),
                categories,
                integer(pr, columnWidthOpt),
                integer(pr, maxWidthOpt),
                format,
                pr.matchedOptionValue(csvSeparatorOpt.longestName(), ","),
                generateName,
                formats,
                pr.matchedOptionValue(outputOpt.longestName(), null),
                pr.matchedOptionValue(tagOpt.longestName(), null),
                bool(pr, forceOpt));
    }

    static boolean bool(ParseResult pr, OptionSpec o) {
        if (!pr.hasMatchedOption(o)) {
            return false;
        }
        String v = pr.matchedOptionValue(o.longestName(), "true");
        try {
            return org.rocprofsys.config.SettingType.parseBool(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "option " + o.longestName() + ": invalid value '" + v + "': " + e.getMessage());
        }
    }

    private static List<String> list(ParseResult pr, OptionSpec o) {
        List<String> v = pr.matchedOptionValue(o.longestName(), List.<String>of());
        return v == null ? List.of() : v;
    }

    private static int integer(ParseResult pr, OptionSpec o) {
        String v = pr.matchedOptionValue(o.longestName(), "0");
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + o.longestName() + ": '" + v + "' is not an integer");
        }
    }
}
