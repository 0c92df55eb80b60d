package org.rocprofsys.threading;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rocprofsys.config.Install;
import org.rocprofsys.config.Settings;
import org.rocprofsys.core.spi.Plugin;
import org.rocprofsys.core.spi.TargetEnvironmentContribution;

/**
 * What a run asks of the threading runtimes, all through the target's environment: the lock
 * families the agent interposes (it patches lock calls only for these, so a family left off costs
 * nothing), the OpenMP tool library that an OMPT runtime loads from {@code
 * OMP_TOOL_LIBRARIES}, and the Kokkos Tools library with its settings. The tool libraries record
 * through the agent; nothing here runs beside the target.
 */
public final class ThreadingTools implements TargetEnvironmentContribution {
    /** The bundle: one source, listed only when some switch is on. */
    public static final Plugin PLUGIN = Plugin.ofSources("threading-tools", (settings, env, log) -> {
        ThreadingTools tools = sources(settings, env, Install.lib());
        return tools.environment.isEmpty() ? List.of() : List.of(tools);
    });

    /** The agent's variable: bits of the lock families it interposes (rocprofsys_wire.h). */
    static final String ENV_LOCK_CALLS = "ROCPROFSYS_AGENT_LOCK_CALLS";

    static final int LOCK_CALL_MUTEX = 1;
    static final int LOCK_CALL_RWLOCK = 2;
    static final int LOCK_CALL_SPIN = 4;

    static final String OMP_TOOL_LIBRARIES = "OMP_TOOL_LIBRARIES";
    static final String OMPT_LIBRARY = "librocprof-sys-ompt.so";
    static final String KOKKOSP_LIBRARY = "librocprof-sys-kokkosp.so";
    /** Kokkos 3.2 and later; older ones (Debian's Trilinos Kokkos 3.4 among them) read the other. */
    static final String KOKKOS_TOOLS_LIBS = "KOKKOS_TOOLS_LIBS";

    static final String KOKKOS_PROFILE_LIBRARY = "KOKKOS_PROFILE_LIBRARY";

    private final Map<String, String> environment;

    private ThreadingTools(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    /**
     * The run's variables: the lock bits of {@code ROCPROFSYS_TRACE_THREAD_LOCKS}, {@code _RW_LOCKS}
     * and {@code _SPIN_LOCKS}; with {@code ROCPROFSYS_USE_OMPT} the OMPT library first in {@code
     * OMP_TOOL_LIBRARIES} (the runtime takes the first library whose tool starts), the
     * program's own list kept after it.
     */
    static ThreadingTools sources(Settings settings, Map<String, String> targetEnvironment, Path libraryDirectory) {
        Map<String, String> env = new HashMap<>();
        int locks = (settings.bool("ROCPROFSYS_TRACE_THREAD_LOCKS") ? LOCK_CALL_MUTEX : 0)
                | (settings.bool("ROCPROFSYS_TRACE_THREAD_RW_LOCKS") ? LOCK_CALL_RWLOCK : 0)
                | (settings.bool("ROCPROFSYS_TRACE_THREAD_SPIN_LOCKS") ? LOCK_CALL_SPIN : 0);
        if (locks != 0) {
            env.put(ENV_LOCK_CALLS, Integer.toString(locks));
        }
        if (settings.bool("ROCPROFSYS_USE_OMPT")) {
            String ours =
                    libraryDirectory.resolve(OMPT_LIBRARY).toAbsolutePath().toString();
            String theirs = targetEnvironment.get(OMP_TOOL_LIBRARIES);
            String libraries;
            if (theirs == null || theirs.isBlank()) {
                libraries = ours;
            } else if (theirs.contains(ours)) {
                libraries = theirs;
            } else {
                libraries = ours + ":" + theirs;
            }
            env.put(OMP_TOOL_LIBRARIES, libraries);
        }
        if (settings.bool("ROCPROFSYS_USE_KOKKOSP")) {
            // as upstream, the run's library takes the place of a tool the program's environment named
            String ours =
                    libraryDirectory.resolve(KOKKOSP_LIBRARY).toAbsolutePath().toString();
            env.put(KOKKOS_TOOLS_LIBS, ours);
            env.put(KOKKOS_PROFILE_LIBRARY, ours);
            env.put("ROCPROFSYS_AGENT_KOKKOSP_PREFIX", settings.get("ROCPROFSYS_KOKKOSP_PREFIX"));
            env.put(
                    "ROCPROFSYS_AGENT_KOKKOSP_NAME_MAX",
                    Long.toString(settings.integer("ROCPROFSYS_KOKKOSP_NAME_LENGTH_MAX")));
            env.put("ROCPROFSYS_AGENT_KOKKOSP_DEEP_COPY", settings.bool("ROCPROFSYS_KOKKOSP_DEEP_COPY") ? "1" : "0");
        }
        return new ThreadingTools(env);
    }

    @Override
    public Map<String, String> targetEnvironment(Path sessionDirectory) {
        return environment;
    }
}
