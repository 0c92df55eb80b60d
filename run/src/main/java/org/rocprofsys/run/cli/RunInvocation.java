package org.rocprofsys.run.cli;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.rocprofsys.config.SettingType;

/**
 * What one {@code rocprof-sys-run} command line asks for (the result of {@link RunArguments#parse}).
 *
 * <p>Only the environment changes that come from the options are here; the launcher adds its own
 * ({@code LD_PRELOAD}, {@code LD_LIBRARY_PATH}, {@code ROCPROFSYS_SCRIPT_PATH}, session variables),
 * ideally through {@link #withAdditionalUpdates} so they take part in {@link #reportLines()}.
 *
 * @param request              run the command, or print help / version and exit 0
 * @param command              the command to execute (empty only for help / version)
 * @param updates              the environment updates, in the order upstream applies them
 * @param inheritedEnvironment the environment the launcher was started with
 * @param fork                 {@code --fork}: fork + exec and wait, instead of replacing the launcher
 * @param verbose              the value of {@code -v/--verbose} (0 when absent); see {@link #effectiveVerbosity()}
 * @param monochrome           {@code --monochrome} was given (and not turned off)
 * @param launcher             {@code -l/--launcher}: regex of the target executable; see {@link #commandWithLauncher}
 * @param ignoredArguments     stray values before {@code --} that no option took; upstream drops them silently
 * @param setBy                the option that set each variable it set, as typed ({@code --trace-clock-id})
 */
public record RunInvocation(
        Request request,
        List<String> command,
        List<EnvUpdate> updates,
        Map<String, String> inheritedEnvironment,
        boolean fork,
        int verbose,
        boolean monochrome,
        Optional<String> launcher,
        List<String> ignoredArguments,
        Map<String, String> setBy) {

    /** What the launcher should do. */
    public enum Request {
        /** Apply the updates and execute {@link #command()}. */
        EXECUTE,
        /** Print {@link RunHelp#text()} to stdout and exit 0. */
        HELP,
        /** Print {@link RunHelp#versionLine()} to stdout and exit 0. */
        VERSION
    }

    public RunInvocation {
        Objects.requireNonNull(request, "request");
        command = List.copyOf(command);
        updates = List.copyOf(updates);
        inheritedEnvironment = Map.copyOf(inheritedEnvironment);
        Objects.requireNonNull(launcher, "launcher");
        ignoredArguments = List.copyOf(ignoredArguments);
        setBy = Map.copyOf(setBy);
    }

    /** An option the launcher accepts that has no effect in this build, with its value. */
    public record UnsupportedOption(String option, String value) {}

    /**
     * Variables that options set although nothing reads them, by the option that sets them:
     * upstream's {@code --process-wait} writes ROCPROFSYS_PROCESS_SAMPLING_DELAY, which no setting
     * reads there either.
     */
    private static final Map<String, String> UNREAD_VARIABLES =
            Map.of("ROCPROFSYS_PROCESS_SAMPLING_DELAY", "--process-wait");

    /** The options given whose values nothing acts on, for the one "not supported yet" warning each. */
    public List<UnsupportedOption> unsupportedOptions() {
        List<UnsupportedOption> out = new ArrayList<>();
        for (EnvUpdate u : updates) {
            String option = UNREAD_VARIABLES.get(u.name());
            if (option != null && u.mode() != EnvUpdate.Mode.REMOVE) {
                out.add(new UnsupportedOption(option, u.value()));
            }
        }
        return out;
    }

    /**
     * The variables the options gave a value the command would not otherwise have, by the option
     * that did (a {@link EnvUpdate.Mode#WEAK} update that left an inherited value is not one).
     */
    public Map<String, String> variablesSetByOptions() {
        Map<String, String> env = environment();
        Map<String, String> out = new LinkedHashMap<>();
        setBy.forEach((name, option) -> {
            String v = env.get(name);
            if (v != null && !v.equals(inheritedEnvironment.get(name))) {
                out.put(name, option);
            }
        });
        return out;
    }

    /** The inherited environment with {@link #updates()} applied (see {@link EnvUpdate.Mode}). */
    public Map<String, String> applyTo(Map<String, String> inherited) {
        return EnvUpdate.applyAll(inherited, updates);
    }

    /** {@link #applyTo} on {@link #inheritedEnvironment()}. */
    public Map<String, String> environment() {
        return applyTo(inheritedEnvironment);
    }

    /**
     * This invocation with {@code initial} applied before the option updates: what upstream's
     * {@code init_parser} sets before any option is parsed ({@code ROCPROFSYS_SCRIPT_PATH}, and in
     * OMPT builds {@code OMP_TOOL_LIBRARIES} PREPEND when unset), so that e.g. {@code -E ompt} can
     * undo it.
     */
    public RunInvocation withInitialUpdates(List<EnvUpdate> initial) {
        List<EnvUpdate> all = new ArrayList<>(initial);
        all.addAll(updates);
        return withUpdates(all);
    }

    /**
     * This invocation with {@code extra} applied after the option updates: upstream's {@code
     * LD_PRELOAD} and {@code LD_LIBRARY_PATH} APPEND (skipped under {@code --launcher}).
     */
    public RunInvocation withAdditionalUpdates(List<EnvUpdate> extra) {
        List<EnvUpdate> all = new ArrayList<>(updates);
        all.addAll(extra);
        return withUpdates(all);
    }

    /** This invocation with {@code all} as its updates, everything else kept. */
    private RunInvocation withUpdates(List<EnvUpdate> all) {
        return new RunInvocation(
                request,
                command,
                all,
                inheritedEnvironment,
                fork,
                verbose,
                monochrome,
                launcher,
                ignoredArguments,
                setBy);
    }

    /**
     * The names upstream counts as updated: every variable an update targets, even a {@link
     * EnvUpdate.Mode#WEAK} update that left the variable alone; not {@link EnvUpdate.Mode#REMOVE}.
     */
    public Set<String> updatedNames() {
        Set<String> names = new LinkedHashSet<>();
        for (EnvUpdate u : updates) {
            if (u.mode() != EnvUpdate.Mode.REMOVE) {
                names.add(u.name());
            }
        }
        return names;
    }

    /**
     * The verbosity upstream acts on when it prints the environment, the {@code Executing '...'}
     * line ({@code >= 1}) and the {@code --fork} exit-status messages: {@code
     * ROCPROFSYS_CAUSAL_VERBOSE}, else {@code ROCPROFSYS_VERBOSE} of the inherited environment, else
     * {@code -v}; plus 8 when {@code ROCPROFSYS_CAUSAL_DEBUG} (else {@code ROCPROFSYS_DEBUG}) is true
     * in the inherited environment. Negative: print nothing.
     */
    public int effectiveVerbosity() {
        int v = intEnv("ROCPROFSYS_CAUSAL_VERBOSE", intEnv("ROCPROFSYS_VERBOSE", verbose));
        boolean debug = boolEnv("ROCPROFSYS_CAUSAL_DEBUG", boolEnv("ROCPROFSYS_DEBUG", false));
        return debug ? v + 8 : v;
    }

    /** {@link #reportLines(Map, Collection)} for {@link #environment()} and no extra names. */
    public List<String> reportLines() {
        return reportLines(environment(), List.of());
    }

    /**
     * The {@code NAME=value} lines upstream prints to stderr before executing (each prefixed with
     * {@code "ROCPROFSYS: "} by rocprof-sys-run, after one empty line; nothing at all when the list
     * is empty): with {@link #effectiveVerbosity()} {@code >= 1} first every other variable whose
     * name starts with {@code ROCPROFSYS}, then the updated ones; each part sorted as strings;
     * nothing when the verbosity is negative.
     *
     * <p>[quirk, kept] an entry counts as updated when it merely starts with an updated name, so
     * after {@code -T} (which updates {@code ROCPROFSYS_TRACE}) an inherited {@code
     * ROCPROFSYS_TRACE_DELAY=...} is listed with the updates.
     *
     * @param finalEnvironment the environment the command gets
     * @param extraUpdatedNames names the launcher updated itself (LD_PRELOAD, ...), when not added
     *                          through {@link #withAdditionalUpdates}
     */
    public List<String> reportLines(Map<String, String> finalEnvironment, Collection<String> extraUpdatedNames) {
        int verbosity = effectiveVerbosity();
        if (verbosity < 0) {
            return List.of();
        }
        Set<String> updated = updatedNames();
        updated.addAll(extraUpdatedNames);
        List<String> entries = new ArrayList<>();
        finalEnvironment.forEach((k, v) -> entries.add(k + "=" + v));
        entries.sort(null);
        List<String> general = new ArrayList<>();
        List<String> changed = new ArrayList<>();
        for (String e : entries) {
            boolean isUpdated = false;
            for (String u : updated) {
                if (e.startsWith(u)) {
                    isUpdated = true;
                    break;
                }
            }
            if (isUpdated) {
                changed.add(e);
            } else if (verbosity >= 1 && e.startsWith("ROCPROFSYS")) {
                general.add(e);
            }
        }
        general.addAll(changed);
        return List.copyOf(general);
    }

    /**
     * The command to execute under {@code -l/--launcher}: {@code selfExecutable --} inserted before
     * the first argument in which the launcher regex finds a match, e.g. {@code --launcher sleep --
     * mpirun -n 2 sleep 10} gives {@code mpirun -n 2 <self> -- sleep 10}. Without a launcher the
     * command is returned as is. With a launcher, upstream does not add LD_PRELOAD / LD_LIBRARY_PATH
     * (the inner rocprof-sys-run does).
     *
     * @throws RunUsageException when no argument matches (upstream: {@code rocprof-sys-run was unable
     *                           to match "<regex>" to any arguments on the command line: "<command>"})
     */
    public List<String> commandWithLauncher(String selfExecutable) throws RunUsageException {
        if (launcher.isEmpty()) {
            return command;
        }
        Pattern p = Pattern.compile(launcher.get());
        List<String> out = new ArrayList<>();
        boolean injected = false;
        for (String arg : command) {
            if (!injected && p.matcher(arg).find()) {
                out.add(selfExecutable);
                out.add("--");
                injected = true;
            }
            out.add(arg);
        }
        if (!injected) {
            throw new RunUsageException(
                    "-l/--launcher",
                    "rocprof-sys-run was unable to match \"" + launcher.get()
                            + "\" to any arguments on the command line: \"" + String.join(" ", command) + "\"");
        }
        return List.copyOf(out);
    }

    private int intEnv(String name, int fallback) {
        String v = inheritedEnvironment.get(name);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    private boolean boolEnv(String name, boolean fallback) {
        String v = inheritedEnvironment.get(name);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        String s = v.strip();
        if (s.chars().allMatch(Character::isDigit)) {
            return !s.chars().allMatch(c -> c == '0');
        }
        try {
            return SettingType.parseBool(s);
        } catch (IllegalArgumentException e) {
            return fallback;
        }
    }
}
