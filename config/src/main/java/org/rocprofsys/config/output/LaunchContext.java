package org.rocprofsys.config.output;

import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.rocprofsys.config.proc.ProcFs;
import org.rocprofsys.config.proc.ProcStat;

/**
 * The facts that {@code %key%} placeholders expand to, for one profiled process.
 *
 * @param argv        the target's command line, argv[0] being the executable as given
 * @param pid         process id ({@code %pid%}, also the default file suffix)
 * @param ppid        parent process id ({@code %ppid%}; {@code %psize%} counts its children)
 * @param pgid        process group id ({@code %pgid%})
 * @param sid         session id ({@code %psid%})
 * @param launchTime  when the process started ({@code %launch_time%}, the TIME_OUTPUT folder)
 * @param environment the process environment ({@code %env{NAME}%}, SLURM / MPI variables)
 * @param settings    setting value by env name or short name ({@code %cfg{NAME}%}, TIME_FORMAT)
 * @param tagOverride replaces the tag derived from argv[0] ({@code rocprof-sys-avail -t})
 */
public record LaunchContext(
        List<String> argv,
        long pid,
        long ppid,
        long pgid,
        long sid,
        ZonedDateTime launchTime,
        Map<String, String> environment,
        Function<String, Optional<String>> settings,
        Optional<String> tagOverride) {

    public LaunchContext {
        argv = List.copyOf(argv);
        Objects.requireNonNull(launchTime, "launchTime");
        environment = Map.copyOf(environment);
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(tagOverride, "tagOverride");
    }

    /**
     * A context for the running JVM: the launcher is the process whose ids these are until the
     * core builds contexts for target pids itself. Without a readable /proc (not Linux) the
     * group and session ids fall back to the pid.
     */
    public static LaunchContext current(
            List<String> argv, Map<String, String> env, Function<String, Optional<String>> settings) {
        ProcessHandle self = ProcessHandle.current();
        ProcStat ids = ProcFs.system()
                .selfStat()
                .filter(i -> i.pid() == self.pid())
                .orElseGet(() -> new ProcStat(
                        self.pid(),
                        "",
                        'R',
                        self.parent().map(ProcessHandle::pid).orElse(0L),
                        self.pid(),
                        self.pid(),
                        0,
                        0,
                        0,
                        0));
        return new LaunchContext(
                argv,
                ids.pid(),
                ids.ppid(),
                ids.pgrp(),
                ids.session(),
                ZonedDateTime.now(),
                env,
                settings,
                Optional.empty());
    }

    /** The same process seen with {@code rocprof-sys-avail -t TAG}. */
    public LaunchContext withTag(String tag) {
        return new LaunchContext(argv, pid, ppid, pgid, sid, launchTime, environment, settings, Optional.of(tag));
    }

    /** {@code %tag%}: the override if given, else argv[0]'s basename without .py/.exe. */
    public String tag() {
        return tagOverride.orElseGet(() -> CommandLineStrings.tagOf(argv));
    }

    /** An environment variable that is set and not empty. */
    public Optional<String> env(String name) {
        String v = environment.get(name);
        return v == null || v.isEmpty() ? Optional.empty() : Optional.of(v);
    }
}
