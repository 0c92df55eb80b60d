package org.rocprofsys.run.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.rocprofsys.config.SettingsRegistry;

/**
 * The command line of {@code rocprof-sys-run} (inventory §1.1, §1.2; upstream {@code
 * source/bin/rocprof-sys-run/impl.cpp} and {@code source/lib/core/argparse.cpp}), parsed the way
 * timemory's argparse does it:
 *
 * <ul>
 *   <li>everything after the first {@code --} is the command;</li>
 *   <li>without {@code --}, {@code -h}, {@code -?}, {@code --help} or {@code --version} anywhere,
 *       and a first argument that does not start with {@code -}, the whole argument list is the
 *       command and nothing is parsed ({@code rocprof-sys-run ./app arg});</li>
 *   <li>options are looked up by their name without dashes, so {@code --v} is {@code -v} and {@code
 *       -v=1}, {@code --wait=1} work; a single dash with several letters is a cluster of flags that
 *       take no values ({@code -TPHD});</li>
 *   <li>a token that starts with a dash is a value when it is numeric ({@code -1}, {@code -1e-3});</li>
 *   <li>an option takes the following values until its count is reached or the next option starts;
 *       repeating an option adds to its values; a value no option takes is dropped (listed in
 *       {@link RunInvocation#ignoredArguments()});</li>
 *   <li>values of options with choices are checked one by one (aliases such as {@code
 *       --trace-clock-id boottime} become their choice);</li>
 *   <li>[quirk, kept] the options' effects are applied in the alphabetical order of their names,
 *       not in command-line order (upstream walks a {@code std::map} of names). So explicit
 *       REPLACE options beat the WEAK {@code -w/-d/--periods} whatever their position, and {@code -I}
 *       beats {@code -E} for the same backend ({@code -I all -E mutex-locks} leaves the mutex
 *       tracing on).</li>
 * </ul>
 *
 * Values are checked: numeric options must be numbers, booleans on/off/true/false/yes/no/1/0, and a
 * value that lands in a {@code ROCPROFSYS_*} setting must suit the setting's type and choices.
 */
public final class RunArguments {
    /**
     * The libraries that {@code -I ompt} and {@code -I kokkosp} put into {@code OMP_TOOL_LIBRARIES}
     * and {@code KOKKOS_TOOLS_LIBS} (upstream: the real paths of {@code lib/librocprof-sys-dl.so} and
     * {@code lib/librocprof-sys.so} beside the executable).
     */
    public record Libraries(String dlLibrary, String mainLibrary) {
        public static final Libraries DEFAULT = new Libraries("librocprof-sys-dl.so", "librocprof-sys.so");

        public Libraries {
            Objects.requireNonNull(dlLibrary, "dlLibrary");
            Objects.requireNonNull(mainLibrary, "mainLibrary");
        }
    }

    private RunArguments() {}

    /** {@link #parse(String[], Map, Libraries, SettingsRegistry)} with the default library names and registry. */
    public static RunInvocation parse(String[] argv, Map<String, String> inheritedEnv) throws RunUsageException {
        return parse(argv, inheritedEnv, Libraries.DEFAULT);
    }

    /** {@link #parse(String[], Map, Libraries, SettingsRegistry)} with the standard registry. */
    public static RunInvocation parse(String[] argv, Map<String, String> inheritedEnv, Libraries libraries)
            throws RunUsageException {
        return parse(argv, inheritedEnv, libraries, SettingsRegistry.standard());
    }

    /**
     * Parses a rocprof-sys-run command line.
     *
     * @param argv         the arguments after the program name (what {@code main(String[])} gets)
     * @param inheritedEnv the launcher's environment (for {@link RunInvocation#effectiveVerbosity()} and
     *                     kept in the result for {@link RunInvocation#environment()})
     * @param libraries    the library paths used by {@code -I ompt|kokkosp|all}
     * @param registry     the settings the generated {@code --<setting>} options come from
     * @throws RunUsageException for anything upstream rejects with exit status 1, including an empty
     *                           argument list and an option list without a command ({@link
     *                           RunUsageException#usageOnly()})
     */
    public static RunInvocation parse(
            String[] argv, Map<String, String> inheritedEnv, Libraries libraries, SettingsRegistry registry)
            throws RunUsageException {
        return parse(
                argv,
                inheritedEnv,
                libraries,
                () -> registry == SettingsRegistry.standard() ? RunOptions.standard() : RunOptions.build(registry),
                registry);
    }

    /** Parses a rocprof-sys-sample command line (its option table, inventory §1.3). */
    public static RunInvocation parseSample(String[] argv, Map<String, String> inheritedEnv, Libraries libraries)
            throws RunUsageException {
        return parse(argv, inheritedEnv, libraries, RunOptions::sample, SettingsRegistry.standard());
    }

    /**
     * The invocation of a non-empty command line without options ({@code -- cmd...}, or a command
     * alone), or null when it has some. Its option table (a few hundred options made from the settings, built
     * by code that runs once per run, interpreted) is then not built at all.
     */
    private static RunInvocation withoutOptions(List<String> args, Map<String, String> inheritedEnv)
            throws RunUsageException {
        List<String> command;
        if (args.get(0).equals("--")) {
            command = args.subList(1, args.size()); // every word after "--" is the command's
        } else if (!args.get(0).startsWith("-") && args.stream().noneMatch(RunArguments::asksToParse)) {
            command = args;
        } else {
            return null;
        }
        if (command.isEmpty()) {
            throw RunUsageException.usage();
        }
        return new RunInvocation(
                RunInvocation.Request.EXECUTE,
                command,
                List.of(),
                inheritedEnv,
                false,
                0,
                false,
                java.util.Optional.empty(),
                List.of(),
                Map.of());
    }

    /** Words that make a command line without a leading option go through the option table. */
    private static boolean asksToParse(String a) {
        return a.equals("--") || a.equals("-?") || a.equals("-h") || a.equals("--help") || a.equals("--version");
    }

    static RunInvocation parse(
            String[] argv,
            Map<String, String> inheritedEnv,
            Libraries libraries,
            Supplier<RunOptions> tables,
            SettingsRegistry registry)
            throws RunUsageException {
        Objects.requireNonNull(argv, "argv");
        Objects.requireNonNull(inheritedEnv, "inheritedEnv");
        Objects.requireNonNull(libraries, "libraries");
        if (argv.length == 0) {
            throw RunUsageException.usage();
        }
        List<String> args = List.of(argv);

        RunInvocation plain = withoutOptions(args, inheritedEnv);
        if (plain != null) {
            return plain;
        }
        RunOptions table = tables.get();

        int dash = args.indexOf("--");
        List<String> options = dash < 0 ? args : args.subList(0, dash);
        List<String> command = dash < 0 ? List.of() : args.subList(dash + 1, args.size());

        Tokenizer tk = new Tokenizer(table);
        for (String token : options) {
            tk.accept(token);
        }
        tk.close();
        for (Map.Entry<OptionDef, List<String>> e : tk.found.entrySet()) {
            checkCount(e.getKey(), e.getValue().size());
        }

        if (tk.found.containsKey(table.byKey.get("help"))) {
            return requestOnly(RunInvocation.Request.HELP, inheritedEnv, tk.ignored);
        }
        if (tk.found.containsKey(table.byKey.get("version"))) {
            return requestOnly(RunInvocation.Request.VERSION, inheritedEnv, tk.ignored);
        }

        ParseContext ctx = new ParseContext(registry, libraries, tk.found, table.byKey);
        for (OptionDef o : tk.found.keySet()) {
            checkRelations(o, ctx);
        }
        // upstream runs the actions of every name (-v and --verbose both) in alphabetical order; for
        // this option set running each option once, at its first name, gives the same environment
        Set<OptionDef> done = new LinkedHashSet<>();
        for (Map.Entry<String, OptionDef> e : table.byKey.entrySet()) {
            OptionDef o = e.getValue();
            if (tk.found.containsKey(o) && done.add(o)) {
                o.action().run(ctx, o, tk.found.get(o));
            }
        }

        if (command.isEmpty()) {
            throw RunUsageException.usage();
        }
        return new RunInvocation(
                RunInvocation.Request.EXECUTE,
                command,
                ctx.updates,
                inheritedEnv,
                ctx.fork,
                ctx.verbose,
                ctx.monochrome,
                ctx.launcher,
                tk.ignored,
                ctx.setBy);
    }

    /** Help or version: nothing to run, no updates, the environment as inherited. */
    private static RunInvocation requestOnly(
            RunInvocation.Request request, Map<String, String> inheritedEnv, List<String> ignored) {
        return new RunInvocation(
                request,
                List.of(),
                List.of(),
                inheritedEnv,
                false,
                0,
                false,
                java.util.Optional.empty(),
                ignored,
                Map.of());
    }

    private static void checkCount(OptionDef o, int n) throws RunUsageException {
        if (o.count() >= 0 && n != o.count()) {
            throw new RunUsageException(
                    o.label(),
                    o.label() + " requires exactly " + o.count() + " value" + (o.count() == 1 ? "" : "s") + ", got "
                            + n);
        }
        if (o.max() >= 0 && n > o.max()) {
            throw new RunUsageException(
                    o.label(),
                    o.label() + " accepts at most " + o.max() + " value" + (o.max() == 1 ? "" : "s") + ", got " + n);
        }
        if (o.min() >= 0 && n < o.min()) {
            throw new RunUsageException(
                    o.label(),
                    o.label() + " requires at least " + o.min() + " value" + (o.min() == 1 ? "" : "s") + ", got " + n);
        }
    }

    private static void checkRelations(OptionDef o, ParseContext ctx) throws RunUsageException {
        if (!o.requires().isEmpty()) {
            boolean any = false;
            for (String k : o.requires()) {
                any |= ctx.exists(k);
            }
            if (!any) {
                List<String> need =
                        o.requires().stream().map(k -> ctx.byKey.get(k).label()).toList();
                throw new RunUsageException(
                        o.label(),
                        o.label() + " requires " + (need.size() == 1 ? "" : "one of ") + String.join(" or ", need));
            }
        }
        for (String k : o.conflicts()) {
            if (ctx.exists(k)) {
                throw new RunUsageException(
                        o.label(),
                        o.label() + " conflicts with " + ctx.byKey.get(k).label());
            }
        }
    }

    /** timemory's argparse tokenization: options, their values, and the values nobody takes. */
    private static final class Tokenizer {
        private final RunOptions table;
        final Map<OptionDef, List<String>> found = new LinkedHashMap<>();
        final List<String> ignored = new ArrayList<>();
        private OptionDef current;

        Tokenizer(RunOptions table) {
            this.table = table;
        }

        void accept(String token) throws RunUsageException {
            if (token.isEmpty()) {
                return;
            }
            int dashes = leadingDashes(token);
            boolean isOption = dashes > 0 && token.length() > 1 && token.length() != dashes && !isNumeric(token);
            if (isOption) {
                close();
                begin(token, dashes);
            } else {
                value(token);
            }
        }

        private void begin(String token, int dashes) throws RunUsageException {
            String body = token.substring(dashes);
            if (dashes == 1 && body.equals("?")) {
                open(table.byKey.get("help"), token);
                return;
            }
            int nameEnd = findPunct(body);
            if (dashes == 1 && nameEnd > 1) {
                // a cluster of single-letter flags: each opens and closes at once, so none takes a value
                if (nameEnd < body.length()) {
                    throw new RunUsageException(token, "malformed argument: " + token);
                }
                for (char ch : body.toCharArray()) {
                    OptionDef o = lookup(String.valueOf(ch), "-" + ch);
                    open(o, "-" + ch);
                    close();
                }
                return;
            }
            String name = body.substring(0, nameEnd);
            int eq = findEquiv(body);
            OptionDef o = table.byKey.get(name);
            if (o == null && eq > 0) {
                name = body.substring(0, eq);
                o = table.byKey.get(name);
            }
            if (o == null) {
                o = lookup(eq > 0 ? name : body, (dashes == 1 ? "-" : "--") + (eq > 0 ? name : body));
            }
            if (eq == 0 || (eq < 0 && name.length() < body.length())) {
                throw new RunUsageException(o.label(), "malformed argument: " + token);
            }
            open(o, token);
            if (eq > 0) {
                value(body.substring(eq + 1));
            }
        }

        private OptionDef lookup(String key, String shown) throws RunUsageException {
            OptionDef o = table.byKey.get(key);
            if (o == null) {
                throw new RunUsageException(shown, "unrecognized option '" + shown + "' (see rocprof-sys-run --help)");
            }
            return o;
        }

        private void open(OptionDef o, String shown) {
            found.computeIfAbsent(o, k -> new ArrayList<>());
            current = o;
        }

        private void value(String raw) throws RunUsageException {
            if (current == null) {
                ignored.add(raw);
                return;
            }
            OptionDef o = current;
            String v = choice(o, raw);
            List<String> values = found.get(o);
            if (reached(o, values.size())) {
                close();
                ignored.add(raw);
                return;
            }
            values.add(v);
            if (reached(o, values.size())) {
                close();
            }
        }

        private static boolean reached(OptionDef o, int n) {
            return (o.count() >= 0 && n >= o.count()) || (o.max() >= 0 && n >= o.max());
        }

        /** The value, or the choice it is an alias of; an error when the option has choices and it is none. */
        private static String choice(OptionDef o, String v) throws RunUsageException {
            if (o.choices().isEmpty() || o.choices().contains(v)) {
                return v;
            }
            for (Map.Entry<String, List<String>> a : o.choiceAliases().entrySet()) {
                if (a.getValue().contains(v)) {
                    return a.getKey();
                }
            }
            StringBuilder valid = new StringBuilder();
            for (String c : o.choices()) {
                valid.append(valid.isEmpty() ? "" : ", ").append(c);
                List<String> al = o.choiceAliases().get(c);
                if (al != null) {
                    valid.append(" (").append(String.join("|", al)).append(')');
                }
            }
            throw new RunUsageException(
                    o.label(), "invalid choice '" + v + "' for " + o.label() + "; valid choices: " + valid);
        }

        /** Ends the open option (upstream end_argument: an exact count must be met by then). */
        void close() throws RunUsageException {
            if (current == null) {
                return;
            }
            OptionDef o = current;
            current = null;
            int n = found.get(o).size();
            if (o.count() >= 0 && n < o.count()) {
                throw new RunUsageException(
                        o.label(),
                        o.label() + " requires " + o.count() + " value" + (o.count() == 1 ? "" : "s") + ", got " + n);
            }
        }

        private static int leadingDashes(String s) {
            int i = 0;
            while (i < s.length() && s.charAt(i) == '-') {
                i++;
            }
            return i;
        }

        /** timemory helpers::is_numeric: some digit, and nothing but digits and {@code .Ee+-/*}. */
        private static boolean isNumeric(String s) {
            boolean digit = false;
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c >= '0' && c <= '9') {
                    digit = true;
                } else if (".Ee+-*/".indexOf(c) < 0) {
                    return false;
                }
            }
            return digit;
        }

        private static boolean isPunct(char c) {
            return c < 128 && c > 32 && !Character.isLetterOrDigit(c) && c != 127;
        }

        /** timemory helpers::find_punct: the first punctuation character other than '-'. */
        private static int findPunct(String s) {
            int i = 0;
            while (i < s.length() && !(isPunct(s.charAt(i)) && s.charAt(i) != '-')) {
                i++;
            }
            return i;
        }

        /** timemory helpers::find_equiv: the '=' ending a name made of letters, digits, '-' and '_'; else -1. */
        private static int findEquiv(String s) {
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (isPunct(c)) {
                    if (c == '=') {
                        return i;
                    }
                    if (c == '_' || c == '-') {
                        continue;
                    }
                    return -1;
                }
            }
            return -1;
        }
    }
}
