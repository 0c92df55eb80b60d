package org.rocprofsys.core.spi;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rocprofsys.config.Settings;

/**
 * Makes the session parts of one kind of collection (process sampling, call-stack sampling, a GPU
 * tracing backend) that a run's settings ask for; none where they ask for nothing.
 */
@FunctionalInterface
public interface SourceProvider {
    /**
     * @param targetEnvironment the target's environment (for switches that are not settings)
     * @throws IllegalArgumentException for settings the source cannot work with (a usage error)
     */
    List<? extends SessionPart> sources(Settings settings, Map<String, String> targetEnvironment, PrintStream log);

    /**
     * The parts for a run of {@code program}, for a provider whose parts depend on what the program
     * is (the MPI wrappers, chosen by the MPI library it links); by default the program is not
     * looked at.
     *
     * @param program the executable the run starts, resolved as exec would (empty: not found, or
     *                not known to the caller)
     */
    default List<? extends SessionPart> sources(
            Settings settings, Map<String, String> targetEnvironment, Optional<Path> program, PrintStream log) {
        return sources(settings, targetEnvironment, log);
    }

    /** Every provider's parts, in the providers' order. */
    static List<SessionPart> all(
            List<SourceProvider> providers, Settings settings, Map<String, String> targetEnvironment, PrintStream log) {
        return all(providers, settings, targetEnvironment, Optional.empty(), log);
    }

    /** Every provider's parts for a run of {@code program}, in the providers' order. */
    static List<SessionPart> all(
            List<SourceProvider> providers,
            Settings settings,
            Map<String, String> targetEnvironment,
            Optional<Path> program,
            PrintStream log) {
        List<SessionPart> out = new ArrayList<>();
        for (SourceProvider p : providers) {
            out.addAll(p.sources(settings, targetEnvironment, program, log));
        }
        return out;
    }
}
