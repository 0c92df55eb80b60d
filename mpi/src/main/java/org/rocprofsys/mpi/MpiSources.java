package org.rocprofsys.mpi;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.output.LauncherRank;
import org.rocprofsys.core.spi.SessionPart;
import org.rocprofsys.core.spi.SourceProvider;

/**
 * The MPI parts of a run whose program links an MPI library: the wrapper library for that
 * implementation preloaded after the agent, the decoder of its rank records and the comm_data
 * counters, and under MPICH's Hydra the relay of its PMI connection ({@link PmiRelay}). A program
 * that links none gets nothing: the wrappers are never loaded into it.
 */
final class MpiSources implements SourceProvider {
    private final Supplier<Path> libraryDirectory;

    MpiSources(Supplier<Path> libraryDirectory) {
        this.libraryDirectory = libraryDirectory;
    }

    @Override
    public List<? extends SessionPart> sources(
            Settings settings, Map<String, String> targetEnvironment, PrintStream log) {
        return List.of();
    }

    @Override
    public List<? extends SessionPart> sources(
            Settings settings, Map<String, String> targetEnvironment, Optional<Path> program, PrintStream log) {
        Optional<MpiImplementation> mpi = program.flatMap(MpiImplementation::linkedBy);
        if (mpi.isEmpty()) {
            return List.of();
        }
        Path lib = libraryDirectory.get();
        Path wrappers = lib.resolve(mpi.get().wrapperLibrary());
        if (!Files.isRegularFile(wrappers)) {
            log.println("[rocprof-sys][mpi] " + program.get() + " links "
                    + mpi.get().displayName() + " but " + wrappers
                    + " is missing (built where the implementation's mpi.h is installed): MPI is not traced");
            return List.of(new MpiRankRecords(log, LauncherRank.of(targetEnvironment)), new CommDataCounters());
        }
        List<SessionPart> parts = new ArrayList<>(List.of(
                new MpiPreload(wrappers, settings.bool(MpiPreload.USE_MPIP)),
                new MpiRankRecords(log, LauncherRank.of(targetEnvironment)),
                new CommDataCounters()));
        if (mpi.get() == MpiImplementation.MPICH) {
            PmiRelay.of(targetEnvironment, log).ifPresent(parts::add);
        }
        return parts;
    }
}
