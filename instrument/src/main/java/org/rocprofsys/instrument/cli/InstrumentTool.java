package org.rocprofsys.instrument.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.PatternSyntaxException;
import org.rocprofsys.config.ConfigException;
import org.rocprofsys.config.RawEntry;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;
import org.rocprofsys.config.UnsupportedUse;
import org.rocprofsys.config.Version;
import org.rocprofsys.config.atomicfile.RunLedger;
import org.rocprofsys.config.atomicfile.TemporaryNames;
import org.rocprofsys.config.file.ConfigFileContents;
import org.rocprofsys.config.file.ConfigFiles;
import org.rocprofsys.config.output.LaunchContext;
import org.rocprofsys.config.output.OutputPaths;
import org.rocprofsys.config.output.OutputSettings;
import org.rocprofsys.core.launch.BytePath;
import org.rocprofsys.core.launch.ProgramPath;
import org.rocprofsys.elf.ElfFile;
import org.rocprofsys.elf.ElfFormatException;
import org.rocprofsys.instrument.area.Area;
import org.rocprofsys.instrument.area.AreaBuilder;
import org.rocprofsys.instrument.capstone.Capstone;
import org.rocprofsys.instrument.capstone.CapstoneException;
import org.rocprofsys.instrument.plan.Exclusion;
import org.rocprofsys.instrument.plan.InstrumentPlan;
import org.rocprofsys.instrument.plan.LabelFormat;
import org.rocprofsys.instrument.plan.PlanResult;
import org.rocprofsys.instrument.plan.Planner;
import org.rocprofsys.instrument.plan.PlannerOptions;
import org.rocprofsys.instrument.report.ExclusionHint;
import org.rocprofsys.instrument.report.FunctionList;
import org.rocprofsys.instrument.report.ListFiles;
import org.rocprofsys.instrument.report.PrintMode;
import org.rocprofsys.instrument.rewrite.ElfRewriter;
import org.rocprofsys.instrument.rewrite.RuntimePlanWriter;
import org.rocprofsys.instrument.select.InternalLibraries;
import org.rocprofsys.instrument.select.SelectionMessage;
import org.rocprofsys.instrument.select.SelectionOptions;

/**
 * What rocprof-sys-instrument does with a parsed command line: reads the settings (a bad config
 * fails here, as upstream), finds the target, plans it (and, at run time, the user libraries it
 * links), writes the instrumentation lists, and then writes an instrumented copy ({@code -o}),
 * stops ({@code --simulate}), or hands back a launch with a runtime plan for rocprof-sys-run.
 */
public final class InstrumentTool {
    /** Reasons of functions the selection wanted but that cannot be patched safely ({@code -e} makes them errors). */
    static final Set<String> PATCH_REFUSALS = Set.of(
            "jump-to-entry",
            "too-short-for-patch",
            "branch-target-in-patch",
            "symbol-in-patch",
            "unrelocatable-instruction",
            "return-in-patch",
            "indirect-jump-in-patch",
            "displacement-out-of-range");
    /** How the command ends: an exit status, or a run of the target with a runtime plan. */
    public sealed interface Outcome {
        record Exit(int status) implements Outcome {}

        /**
         * Run {@code command} under rocprof-sys-run with {@code environment} added; delete {@code planFile}
         * after. {@code unsupported}: the options given that have no effect, not yet warned about; the
         * run warns and lists them in metadata.json as it does its own.
         */
        record Launch(
                List<String> command, Map<String, String> environment, Path planFile, List<UnsupportedUse> unsupported)
                implements Outcome {}
    }

    private final Map<String, String> environment;
    private final Path cwd;
    private final PrintStream out;
    private final PrintStream err;
    private PrintWriter logFile;
    private int verbose;
    /** Whether the options and settings without effect have been warned about (by this tool). */
    private boolean warned;

    public InstrumentTool(Map<String, String> environment, Path cwd, PrintStream out, PrintStream err) {
        this.environment = environment;
        this.cwd = cwd;
        this.out = out;
        this.err = err;
    }

    public Outcome run(List<String> args) {
        InstrumentRequest req;
        try {
            req = new InstrumentCli().parse(args);
        } catch (InstrumentUsageException e) {
            err.println("[" + InstrumentCli.TOOL + "] error: " + e.getMessage());
            return new Outcome.Exit(1);
        }
        switch (req.action()) {
            case HELP -> {
                out.print(new InstrumentCli().help());
                out.println();
                out.println("Usage: " + InstrumentCli.TOOL + " <OPTIONS> -- <CMD> <ARGS>");
                return new Outcome.Exit(0);
            }
            case VERSION -> {
                out.println(InstrumentCli.TOOL + " v" + Version.STRING.replaceFirst("^v", ""));
                return new Outcome.Exit(0);
            }
            default -> {}
        }
        try {
            return instrument(req);
        } catch (ToolError e) {
            error(e.getMessage());
            return new Outcome.Exit(1);
        } catch (IOException e) {
            error(e.getMessage());
            return new Outcome.Exit(1);
        } finally {
            if (logFile != null) {
                logFile.close();
            }
        }
    }

    private static final class ToolError extends Exception {
        ToolError(String message) {
            super(message);
        }
    }

    private Outcome instrument(InstrumentRequest req) throws ToolError, IOException {
        verbose = req.verbose() > 0 ? req.verbose() : intEnv("ROCPROFSYS_VERBOSE_INSTRUMENT", 0);
        if (req.pid() != null) {
            throw new ToolError("attaching to a running process (-p/--pid) is not supported; instrument at launch"
                    + " (-- <CMD> <ARGS>) or rewrite the binary (-o)");
        }
        if (req.command().isEmpty()) {
            throw new ToolError("no command given: " + InstrumentCli.TOOL + " <OPTIONS> -- <CMD> <ARGS>");
        }
        Settings settings;
        try {
            settings = new SettingsLoader(SettingsRegistry.standard(), environment, cwd).load();
        } catch (ConfigException e) {
            throw new ToolError(e.getMessage());
        }
        try {
            return instrument(req, settings);
        } catch (ToolError e) {
            if (!warned) { // the run that would have warned about them does not happen
                warn(req, settings);
            }
            throw e;
        }
    }

    private void warn(InstrumentRequest req, Settings settings) {
        warned = true;
        settings.warnings().forEach(w -> err.println("[" + InstrumentCli.TOOL + "] warning: " + w));
        req.unsupported().forEach(u -> err.println("[" + InstrumentCli.TOOL + "] warning: " + u.message()));
        settings.unsupported().forEach(u -> err.println("[" + InstrumentCli.TOOL + "] warning: " + u.message()));
    }

    private Outcome instrument(InstrumentRequest req, Settings settings) throws ToolError, IOException {
        Path target = resolveTarget(req.command().getFirst());
        ElfFile elf = open(target);

        boolean simulate = req.simulate();
        boolean allFunctions = req.allFunctions();
        boolean rewrite = req.rewrite();
        if (!rewrite && !req.force() && looksLikeLibrary(target, elf)) {
            say("[rocprof-sys][exe] Runtime instrumentation is not possible!");
            say("[rocprof-sys][exe] Switching to binary rewrite mode and assuming '--simulate --all-functions'");
            simulate = true;
            allFunctions = true;
        }
        if (!simulate && StaticProgram.is(elf)) {
            throw new ToolError(StaticProgram.instrumentRefusal(req.command().getFirst(), rewrite));
        }
        if (simulate || rewrite) {
            // a runtime instrumentation runs the command through rocprof-sys-run, which loads the same
            // settings and warns about them then; it gets the options through Outcome.Launch and warns
            // about them once with its own and lists them all in metadata.json (or, when this tool
            // fails before that run, this tool warns before its error)
            warn(req, settings);
        }

        Path listDir = listDirectory(req, settings);
        if (req.logFile() != null) {
            Path log = listDir.resolve(req.logFile());
            Files.createDirectories(listDir);
            say("[rocprof-sys][exe] Opening '" + log + "' for log output...");
            logFile = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true);
        }

        PlannerOptions options;
        try {
            options = new PlannerOptions(
                    selection(req), LabelFormat.of(Set.copyOf(req.label())), req.modeNumber(), allFunctions);
        } catch (PatternSyntaxException e) {
            throw new ToolError("invalid regular expression '" + e.getPattern() + "': " + e.getDescription());
        } catch (IllegalArgumentException e) {
            throw new ToolError(e.getMessage());
        }

        List<Path> modules = new ArrayList<>(List.of(target));
        if (!rewrite && !simulate) {
            RuntimeModules runtime =
                    RuntimeModules.of(elf, options.selection(), req.internalLibraryDeps(), environment, cwd);
            modules.addAll(runtime.planned());
            if (!runtime.internalDeps().isEmpty()) {
                options = options.withSelection(options.selection()
                        .withInternalLibraries(
                                options.selection().internalLibraries().plusAppend(runtime.internalDeps())));
            }
            sayLeftOut(runtime.systemLeftOut());
        }
        List<PlanResult> results = new ArrayList<>();
        try (Capstone capstone = Capstone.openX86_64()) {
            Planner planner = new Planner(capstone);
            for (Path m : modules) {
                ElfFile e = m.equals(target) ? elf : open(m);
                PlanResult r = planner.plan(e, options);
                for (SelectionMessage msg : r.messages()) {
                    if (msg.level() <= verbose) {
                        say(msg.format());
                    }
                }
                say(r.summary());
                if (!rewrite) { // a rewrite that selects nothing fails with the hint
                    ExclusionHint.of(r.plan(), options.selection())
                            .ifPresent(h -> say("[rocprof-sys][exe] " + h.line()));
                }
                results.add(r);
            }
        } catch (ElfFormatException e) {
            throw new ToolError(e.getMessage());
        } catch (IllegalStateException | UnsatisfiedLinkError | CapstoneException e) {
            // CapstoneException: no Capstone library on the machine (the message names the package)
            throw new ToolError(e.getMessage());
        }
        List<InstrumentPlan> plans = results.stream().map(PlanResult::plan).toList();

        writeLists(req, plans, listDir);
        if (req.error()) {
            List<String> refused = new ArrayList<>();
            for (InstrumentPlan p : plans) {
                for (Exclusion x : p.excluded()) {
                    if (PATCH_REFUSALS.contains(x.reason())) {
                        refused.add(x.function().name() + " (" + x.reason() + ")");
                    }
                }
            }
            if (!refused.isEmpty()) {
                throw new ToolError("-e/--error: " + refused.size() + " selected function(s) cannot be instrumented: "
                        + String.join(", ", refused.subList(0, Math.min(10, refused.size())))
                        + (refused.size() > 10 ? ", ..." : ""));
            }
        }
        if (simulate) {
            return new Outcome.Exit(0);
        }

        Map<String, String> defaults = embeddedDefaults(req);
        if (rewrite) {
            Path output = outputPath(req.output(), target);
            InstrumentPlan plan = plans.getFirst();
            if (plan.instrumented().isEmpty() && req.modeNumber() == 0) {
                String why = ExclusionHint.of(plan, options.selection())
                        .map(h -> h.summary() + " (see " + listDir.resolve("excluded.txt") + "); " + h.advice())
                        .orElse("no function is selected (see " + listDir.resolve("excluded.txt") + ")");
                throw new ToolError(target + ": " + why + "; nothing written");
            }
            Path parent = output.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            defaults.put("ROCPROFSYS_INSTRUMENT_MODE", "1");
            try {
                ElfRewriter.rewrite(plan, defaults, output);
            } catch (IOException e) {
                throw new ToolError("cannot write '" + output + "': " + e.getMessage());
            }
            say("[rocprof-sys][exe] Wrote '" + output + "' ("
                    + plan.instrumented().size() + " functions instrumented)");
            return new Outcome.Exit(0);
        }

        List<RuntimePlanWriter.Module> planned = new ArrayList<>();
        for (InstrumentPlan p : plans) {
            if (!p.instrumented().isEmpty()) {
                Area area = AreaBuilder.build(p, Map.of(), req.modeNumber());
                planned.add(RuntimePlanWriter.Module.of(p.module(), area));
            }
        }
        Map<String, String> launchEnv = new LinkedHashMap<>();
        defaults.forEach((k, v) -> {
            if (!environment.containsKey(k)) {
                launchEnv.put(k, v);
            }
        });
        launchEnv.put("ROCPROFSYS_INSTRUMENT_MODE", "0");
        Path planFile = null;
        if (!planned.isEmpty()) {
            planFile =
                    TemporaryNames.createFile(Path.of(settings.get("ROCPROFSYS_TMPDIR")), "rocprofsys-plan-", ".bin");
            RunLedger.record(planFile); // removed by the next run if this one is killed
            RuntimePlanWriter.write(planFile, planned);
            launchEnv.put("ROCPROFSYS_INSTRUMENT_PLAN", planFile.toString());
        }
        return new Outcome.Launch(req.command(), launchEnv, planFile, req.unsupported());
    }

    private ElfFile open(Path file) throws ToolError {
        try {
            return ElfFile.open(file);
        } catch (ElfFormatException e) {
            throw new ToolError(e.getMessage());
        } catch (IOException e) {
            throw new ToolError("cannot read '" + file + "': " + e.getMessage());
        }
    }

    private SelectionOptions selection(InstrumentRequest req) {
        SelectionOptions.Builder b = SelectionOptions.builder()
                .functionInclude(req.functionInclude().toArray(String[]::new))
                .functionExclude(req.functionExclude().toArray(String[]::new))
                .functionRestrict(req.functionRestrict().toArray(String[]::new))
                .callerInclude(req.callerInclude().toArray(String[]::new))
                .moduleInclude(req.moduleInclude().toArray(String[]::new))
                .moduleExclude(req.moduleExclude().toArray(String[]::new))
                .moduleRestrict(req.moduleRestrict().toArray(String[]::new))
                .internalFunctionInclude(req.internalFunctionInclude().toArray(String[]::new))
                .internalModuleInclude(req.internalModuleInclude().toArray(String[]::new))
                .instructionExclude(req.instructionExclude().toArray(String[]::new))
                .allowOverlapping(req.allowOverlapping())
                .dynamicCallsites(req.dynamicCallsites())
                .mainFunction(req.mainFunction())
                .internalLibraries(new InternalLibraries(req.internalLibraryAppend(), req.internalLibraryRemove()))
                .coverage(req.modeNumber() == 2 || !req.coverage().equals("none"))
                .defaultMinInstructions(SelectionOptions.defaultMinInstructions(environment));
        if (req.linkage() != null) {
            b.linkage(Set.copyOf(req.linkage()));
        }
        if (req.visibility() != null) {
            b.visibility(Set.copyOf(req.visibility()));
        }
        if (req.minInstructions() != null) {
            b.minInstructions(req.minInstructions());
        }
        if (req.minAddressRange() != null) {
            b.minAddressRange(req.minAddressRange());
        }
        if (req.minInstructionsLoop() != null) {
            b.minInstructionsLoop(req.minInstructionsLoop());
        }
        if (req.minAddressRangeLoop() != null) {
            b.minAddressRangeLoop(req.minAddressRangeLoop());
        }
        return b.build().withEnvironment(environment);
    }

    /** The command's program: a path, or a name found on PATH (or, for a library, in the working directory). */
    private Path resolveTarget(String program) throws ToolError {
        if (program.contains("/")) {
            Path p = BytePath.ofArgument(program, cwd).normalize(); // the bytes the user gave
            if (Files.isDirectory(p)) {
                throw new ToolError("'" + program + "' is a directory, not a program");
            }
            if (!Files.isRegularFile(p)) {
                throw new ToolError("'" + program + "' does not exist");
            }
            return p;
        }
        Path local = cwd.resolve(program);
        if (Files.isRegularFile(local) && libraryName(program)) {
            return local;
        }
        Optional<Path> onPath = ProgramPath.find(program, environment, cwd);
        if (onPath.isPresent()) {
            return onPath.get();
        }
        if (Files.isRegularFile(local)) {
            return local;
        }
        throw new ToolError("'" + program + "' was not found (not a path, and not on PATH)");
    }

    private static boolean libraryName(String name) {
        return name.startsWith("lib") || name.endsWith(".so") || name.contains(".so.") || name.endsWith(".a");
    }

    /** A library that cannot be started: ET_DYN without an interpreter, named like a library. */
    private static boolean looksLikeLibrary(Path target, ElfFile elf) {
        boolean interp = elf.programHeaders().stream().anyMatch(h -> h.type() == 3); // PT_INTERP
        return libraryName(target.getFileName().toString()) && (!interp || !Files.isExecutable(target));
    }

    /**
     * One line for the system libraries a runtime instrumentation leaves out: upstream never plans
     * them, and a user who wanted one learns that {@code -MI} selects it.
     */
    private void sayLeftOut(List<Path> leftOut) {
        if (leftOut.isEmpty()) {
            return;
        }
        List<String> names =
                leftOut.stream().map(p -> p.getFileName().toString()).toList();
        String example = ExclusionHint.stem(names.getFirst());
        say("[rocprof-sys][exe] " + names.size() + " system librar" + (names.size() == 1 ? "y" : "ies")
                + " of the program " + (names.size() == 1 ? "is" : "are") + " not instrumented ("
                + String.join(", ", names.subList(0, Math.min(5, names.size())))
                + (names.size() > 5 ? ", ..." : "") + "): -MI/--module-include <regex> selects one, e.g. -MI "
                + example);
    }

    /** {@code <OUTPUT_PATH>/<OUTPUT_PREFIX>instrumentation} (OUTPUT_PATH replaced by --print-dir). */
    private Path listDirectory(InstrumentRequest req, Settings settings) {
        long self = ProcessHandle.current().pid();
        LaunchContext ctx = new LaunchContext(
                req.command(),
                self,
                self,
                self,
                self,
                ZonedDateTime.now(ZoneId.systemDefault()),
                environment,
                key -> settings.registry().find(key).map(d -> settings.get(d.envName())),
                Optional.empty());
        String path = req.printDir() != null ? req.printDir() : settings.get("ROCPROFSYS_OUTPUT_PATH");
        OutputSettings os = new OutputSettings(
                path,
                settings.get("ROCPROFSYS_OUTPUT_PREFIX"),
                req.printDir() == null && settings.bool("ROCPROFSYS_TIME_OUTPUT"),
                settings.get("ROCPROFSYS_TIME_FORMAT"),
                false,
                settings.get("ROCPROFSYS_PERFETTO_FILE"));
        return new OutputPaths(os, ctx, cwd, OptionalInt.empty())
                .file("available", "txt", "instrumentation", false)
                .getParent();
    }

    private void writeLists(InstrumentRequest req, List<InstrumentPlan> plans, Path dir) throws IOException {
        List<ListFiles.Format> formats =
                req.printFormats().stream().map(ListFiles.Format::of).toList();
        List<FunctionList> lists = List.of(
                FunctionList.AVAILABLE, FunctionList.INSTRUMENTED, FunctionList.EXCLUDED, FunctionList.OVERLAPPING);
        for (Path p : ListFiles.write(dir, plans, lists, formats)) {
            if (verbose >= 1) {
                say("[rocprof-sys][exe] Outputting '" + p + "'...");
            }
        }
        for (Map.Entry<String, String> e : req.prints().entrySet()) {
            FunctionList list;
            PrintMode mode;
            try {
                list = FunctionList.of(e.getKey());
                mode = PrintMode.of(e.getValue());
            } catch (IllegalArgumentException x) {
                error(x.getMessage());
                continue;
            }
            List<org.rocprofsys.instrument.plan.FunctionInfo> rows = new ArrayList<>();
            for (InstrumentPlan p : plans) {
                rows.addAll(list.rows(p));
            }
            out.print(mode.format(list, rows));
        }
    }

    /** --env pairs and -C config values, with the mode, embedded in a rewrite or set for a runtime launch. */
    private Map<String, String> embeddedDefaults(InstrumentRequest req) throws ToolError {
        Map<String, String> d = new LinkedHashMap<>();
        if (req.configFile() != null) {
            try {
                ConfigFileContents c =
                        ConfigFiles.read(cwd.resolve(req.configFile()), environment, k -> Optional.empty());
                for (RawEntry e : c.entries()) {
                    d.put(e.key().startsWith("ROCPROFSYS_") ? e.key() : "ROCPROFSYS_" + e.key(), e.value());
                }
                d.putAll(c.exported());
            } catch (ConfigException e) {
                throw new ToolError(e.getMessage());
            }
        }
        for (String[] kv : req.env()) {
            d.put(kv[0], kv[1]);
        }
        d.putIfAbsent("ROCPROFSYS_MODE", req.mode());
        return d;
    }

    /** -o FILE, or upstream's default name (inventory §1.4). */
    private Path outputPath(String given, Path target) throws IOException {
        String base = target.getFileName().toString();
        boolean inCwd = target.toAbsolutePath()
                .normalize()
                .getParent()
                .equals(cwd.toAbsolutePath().normalize());
        if (given != null && !given.isEmpty()) {
            return BytePath.ofNewFileArgument(given, cwd); // the bytes the user gave
        }
        if (libraryName(base)) {
            return inCwd ? cwd.resolve("instrumented").resolve(base) : cwd.resolve(base);
        }
        if (!base.contains(".")) {
            return inCwd ? cwd.resolve(base + ".inst") : cwd.resolve(base);
        }
        return cwd.resolve(base + ".inst");
    }

    private int intEnv(String name, int fallback) {
        try {
            return Integer.parseInt(
                    environment.getOrDefault(name, Integer.toString(fallback)).trim());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    private void say(String line) {
        err.println(line);
        if (logFile != null) {
            logFile.println(line);
        }
    }

    private void error(String message) {
        say("[" + InstrumentCli.TOOL + "] error: " + message);
    }
}
