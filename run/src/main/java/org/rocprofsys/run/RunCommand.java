package org.rocprofsys.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.rocprofsys.config.ConfigException;
import org.rocprofsys.config.Install;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;
import org.rocprofsys.config.UnsupportedUse;
import org.rocprofsys.core.launch.ProgramPath;
import org.rocprofsys.core.launch.Session;
import org.rocprofsys.core.launch.SessionException;
import org.rocprofsys.core.launch.TargetOutcome;
import org.rocprofsys.core.launch.UnprofiledRun;
import org.rocprofsys.core.output.OutputFormat;
import org.rocprofsys.core.spi.Plugins;
import org.rocprofsys.core.spi.SessionPart;
import org.rocprofsys.core.spi.SourceProvider;
import org.rocprofsys.ffm.ThreadNice;
import org.rocprofsys.instrument.cli.StaticProgram;
import org.rocprofsys.instrument.rewrite.EmbeddedDefaults;
import org.rocprofsys.run.cli.EnvUpdate;
import org.rocprofsys.run.cli.RunArguments;
import org.rocprofsys.run.cli.RunHelp;
import org.rocprofsys.run.cli.RunInvocation;
import org.rocprofsys.run.cli.RunUsageException;

/**
 * {@code rocprof-sys-run [options] -- <command>}: turns the options into the target's environment
 * (printed as upstream does), reads the configuration from it, and runs the target in a profiling
 * session; exits with the target's exit code (128+N when a signal killed it).
 */
public final class RunCommand {
    static final String TOOL = "rocprof-sys-run";
    static final int USAGE_OR_CONFIG_ERROR = 1;
    static final int CANNOT_EXECUTE = 127;
    /** The contributions of the registration list ({@link BuiltinPlugins#ALL}). */
    static final Plugins PLUGINS = new Plugins(BuiltinPlugins.ALL, RunCommand::distributionLib);

    /**
     * Every output a run can write (each writes when the settings enable it), in the order they are
     * finished and metadata.json lists their files: the bundles' formats in registration order.
     */
    static final List<OutputFormat> OUTPUT_FORMATS = PLUGINS.outputFormats();

    /**
     * The source providers, in the order the session asks their parts (the first one's intercept
     * stage sees the collected events first): the bundles' providers in registration order.
     */
    static final List<SourceProvider> SOURCES = PLUGINS.sources();

    /** The distribution's lib/ (the launcher script passes the install prefix). */
    private static Path distributionLib() {
        return Install.lib();
    }

    private final Path prefix;
    private final Map<String, String> environment;
    private final Path workingDirectory;
    private final PrintStream out;
    private final PrintStream err;
    /** The name in messages: rocprof-sys-run, or rocprof-sys-sample which runs through here. */
    private final String tool;

    RunCommand(Path prefix, Map<String, String> environment, Path workingDirectory, PrintStream out, PrintStream err) {
        this(TOOL, prefix, environment, workingDirectory, out, err);
    }

    RunCommand(
            String tool,
            Path prefix,
            Map<String, String> environment,
            Path workingDirectory,
            PrintStream out,
            PrintStream err) {
        this.tool = tool;
        this.prefix = prefix;
        this.environment = environment;
        this.workingDirectory = workingDirectory;
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) throws InterruptedException {
        Map<String, String> env = System.getenv();
        Path cwd = Path.of("").toAbsolutePath();
        CompletableFuture<ProgramNote> note = readProgramNoteSoon(args, env, cwd);
        StartupWarmUp.soon();
        Path prefix = Install.prefix();
        RunCommand command = new RunCommand(prefix, env, cwd, System.out, System.err);
        command.programNote = note;
        int rc = command.run(args);
        exit(rc);
    }

    /** Ends a launcher with {@code rc}, once all it printed is out. */
    static void exit(int rc) {
        System.out.flush();
        System.err.flush();
        System.exit(rc);
    }

    /**
     * The program a command line starts (after {@code --}, PATH searched) and the defaults its
     * RocProfSys note embeds (empty when it is not a binary rewritten by rocprof-sys-instrument).
     */
    private record ProgramNote(Optional<Path> program, Optional<Map<String, String>> defaults) {}

    /** Read by {@link #main} at start, for {@link #withEmbeddedDefaults}; null in a test's in-process run. */
    private CompletableFuture<ProgramNote> programNote;

    /**
     * Reads the program's note on a thread of its own, so that start-up does not wait, and then puts
     * the JIT compilers at nice 19: compiling can wait for an idle CPU, the target comes first
     * (docs/benchmarks.md, overhead). Not for a binary rewritten by rocprof-sys-instrument: its calls
     * wait on the collector, whose code at nice 19 stayed interpreted for seconds on two busy CPUs
     * (tiny() x 20 M on the 2-core VM: 4.94 s at nice 19, 3.93 s without, medians of 7;
     * docs/benchmarks.md, thirteenth session). rocprof-sys-instrument's runtime-mode runs never lower them.
     */
    private static CompletableFuture<ProgramNote> readProgramNoteSoon(
            String[] args, Map<String, String> env, Path cwd) {
        int dashes = List.of(args).indexOf("--");
        String program = dashes >= 0 && dashes + 1 < args.length ? args[dashes + 1] : null;
        CompletableFuture<ProgramNote> note = CompletableFuture.supplyAsync(
                () -> {
                    Optional<Path> path = program == null ? Optional.empty() : ProgramPath.find(program, env, cwd);
                    return new ProgramNote(path, path.flatMap(EmbeddedDefaults::of));
                },
                task -> Thread.ofPlatform().daemon().name("rocprof-sys-nice").start(task));
        note.thenAccept(n -> {
            if (n.defaults().isEmpty()) {
                ThreadNice.lowerJitCompilersSoon(); // once the settings gave the level
            }
        });
        return note;
    }

    /**
     * A binary rewritten by rocprof-sys-instrument carries environment defaults ({@code --env},
     * {@code -C}, its mode): they apply where the environment does not set the variable. The note
     * {@link #main} read at start serves when it is of the same file.
     */
    private Map<String, String> withEmbeddedDefaults(Map<String, String> env, List<String> command) {
        if (command.isEmpty()) {
            return env;
        }
        Optional<Path> program = ProgramPath.find(command.getFirst(), env, workingDirectory);
        ProgramNote early = programNote == null
                ? null
                : programNote.exceptionally(x -> null).join();
        Map<String, String> defaults = (early != null && early.program().equals(program)
                        ? early.defaults()
                        : program.flatMap(EmbeddedDefaults::of))
                .orElse(Map.of());
        if (defaults.isEmpty()) {
            return env;
        }
        Map<String, String> out = new java.util.HashMap<>(env);
        defaults.forEach(out::putIfAbsent);
        return out;
    }

    /**
     * A statically linked program never loads the agent (no dynamic loader reads LD_PRELOAD): the
     * user learns it before the run instead of finding empty outputs after it, and which tool works.
     */
    private void warnIfStatic(List<String> command, Map<String, String> env, Settings settings) {
        ProgramPath.find(command.getFirst(), env, workingDirectory)
                .filter(StaticProgram::is)
                .ifPresent(p -> say("warning: "
                        + StaticProgram.runWarning(command.getFirst(), settings.bool("ROCPROFSYS_USE_SAMPLING"))));
    }

    /**
     * The variables config files export ({@code $env:NAME = VALUE}, and unknown keys with
     * ROCPROFSYS_STRICT_CONFIG off) reach the program, where its environment lacks them.
     */
    private static Map<String, String> withExported(Map<String, String> env, Map<String, String> exported) {
        if (exported.isEmpty()) {
            return env;
        }
        Map<String, String> out = new java.util.HashMap<>(env);
        exported.forEach(out::putIfAbsent);
        return out;
    }

    private boolean sampleTool() {
        return tool.equals(SampleCommand.TOOL);
    }

    int run(String[] args) throws InterruptedException {
        return run(args, List.of());
    }

    /**
     * {@code toolOptions}: options of the tool that runs its command through here
     * (rocprof-sys-instrument's) that have no effect; they go to the settings loader with this
     * command line's own, so each is warned about once and listed in metadata.json.
     */
    int run(String[] args, List<UnsupportedUse> toolOptions) throws InterruptedException {
        Path lib = prefix.resolve("lib");
        RunInvocation inv;
        try {
            RunArguments.Libraries libraries = new RunArguments.Libraries(
                    lib.resolve("librocprof-sys-dl.so").toString(),
                    lib.resolve("librocprof-sys.so").toString());
            inv = sampleTool()
                    ? RunArguments.parseSample(args, environment, libraries)
                    : RunArguments.parse(args, environment, libraries);
        } catch (RunUsageException e) {
            err.println(e.usageOnly() ? RunHelp.usageLine(tool) : "[" + tool + "] error: " + e.getMessage());
            return e.exitCode();
        }
        switch (inv.request()) {
            case HELP -> {
                out.print(sampleTool() ? RunHelp.sampleText(tool) : RunHelp.text());
                return 0;
            }
            case VERSION -> {
                out.println(RunHelp.versionLine(tool));
                return 0;
            }
            default -> {}
        }
        inv = inv.withInitialUpdates(List.of(new EnvUpdate(
                "ROCPROFSYS_SCRIPT_PATH",
                prefix.resolve("libexec/rocprofiler-systems").toString(),
                EnvUpdate.Mode.REPLACE)));
        List<String> command;
        try {
            command =
                    inv.commandWithLauncher(prefix.resolve("bin").resolve(tool).toString());
        } catch (RunUsageException e) {
            say("error: " + e.getMessage());
            return e.exitCode();
        }
        Map<String, String> targetEnv = withEmbeddedDefaults(inv.environment(), command);
        List<String> report = inv.reportLines();
        if (!report.isEmpty()) {
            err.println();
            report.forEach(line -> err.println("ROCPROFSYS: " + line));
        }
        Settings settings;
        try {
            SettingsLoader loader = new SettingsLoader(SettingsRegistry.standard(), targetEnv, workingDirectory);
            inv.variablesSetByOptions().forEach(loader::setByOption);
            toolOptions.forEach(o -> loader.unsupportedOption(o.name(), o.value()));
            inv.unsupportedOptions().forEach(o -> loader.unsupportedOption(o.option(), o.value()));
            settings = loader.load();
            ThreadNice.configure(settings.integer("ROCPROFSYS_ANALYSIS_NICE"));
        } catch (ConfigException e) {
            say("error: " + e.getMessage());
            return USAGE_OR_CONFIG_ERROR;
        }
        targetEnv = withExported(targetEnv, settings.exportedEnvironment());
        settings.warnings().forEach(w -> say("warning: " + w));
        settings.unsupported().forEach(u -> say("warning: " + u.message()));
        if (inv.effectiveVerbosity() >= 1) {
            say("Executing '" + shown(command) + "'...");
        }
        if (inv.launcher().isPresent()) {
            return passThrough(command, targetEnv);
        }
        if (!settings.bool("ROCPROFSYS_ENABLED")) {
            // upstream's library does nothing when disabled: no agent, no session, no output files
            if (inv.effectiveVerbosity() >= 1) {
                say("ROCPROFSYS_ENABLED is off: running the command unprofiled");
            }
            return passThrough(command, targetEnv);
        }
        warnIfStatic(command, targetEnv, settings);
        Path agent = lib.resolve("librocprof-sys.so");
        if (!Files.isRegularFile(agent)) {
            say("error: the agent library " + agent + " is missing; rebuild the distribution");
            return USAGE_OR_CONFIG_ERROR;
        }
        List<SessionPart> sources;
        try {
            Optional<Path> program = ProgramPath.find(command.getFirst(), targetEnv, workingDirectory);
            sources = SourceProvider.all(SOURCES, settings, targetEnv, program, err);
        } catch (IllegalArgumentException e) {
            say("error: " + e.getMessage());
            return USAGE_OR_CONFIG_ERROR;
        }
        try {
            Session session = new Session(
                    settings,
                    new Session.Launch(command, targetEnv, workingDirectory, agent),
                    err,
                    sources,
                    OUTPUT_FORMATS);
            TargetOutcome outcome = session.run();
            say("'" + shown(command) + "' " + outcome.describe());
            return outcome.exitCode();
        } catch (SessionException e) {
            say("error: " + e.getMessage());
            return e.exitCode() != 0 ? e.exitCode() : USAGE_OR_CONFIG_ERROR;
        } catch (IOException e) {
            say("error: " + e.getMessage());
            return USAGE_OR_CONFIG_ERROR;
        }
    }

    /**
     * One message on standard error, every line with the tool's prefix (a command or an error that
     * holds newlines would otherwise print lines that seem to come from nowhere).
     */
    private void say(String message) {
        message.lines().forEach(line -> err.println("[" + tool + "] " + line));
    }

    /**
     * A command line as the status lines show it: whole when short; else its first words and how
     * many more there are (30,000 arguments once made 1.5 MB of stderr).
     */
    static String shown(List<String> command) {
        StringBuilder out = new StringBuilder();
        int words = 0;
        for (String word : command) {
            if (words > 0 && (words == SHOWN_WORDS || out.length() + 1 + word.length() > SHOWN_CHARS)) {
                break;
            }
            out.append(words > 0 ? " " : "").append(word);
            words++;
        }
        int more = command.size() - words;
        if (out.length() > SHOWN_CHARS) {
            out.setLength(SHOWN_CHARS);
            out.append("...");
        }
        return more == 0 ? out.toString() : out + " ... (" + more + " more argument" + (more == 1 ? "" : "s") + ")";
    }

    private static final int SHOWN_WORDS = 16;
    private static final int SHOWN_CHARS = 240;

    /** {@code --launcher}: the outer launcher (mpirun, srun) runs unprofiled; the inner rocprof-sys-run profiles. */
    private int passThrough(List<String> command, Map<String, String> env) throws InterruptedException {
        try {
            return UnprofiledRun.run(command, env, workingDirectory);
        } catch (SessionException e) {
            say("error: " + e.getMessage());
            return e.exitCode() != 0 ? e.exitCode() : CANNOT_EXECUTE;
        }
    }
}
