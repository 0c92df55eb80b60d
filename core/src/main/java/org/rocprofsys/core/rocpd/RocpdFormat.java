package org.rocprofsys.core.rocpd;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.atomicfile.AtomicFile;
import org.rocprofsys.config.atomicfile.FileWriteException;
import org.rocprofsys.config.output.OutputPaths;
import org.rocprofsys.core.output.AbandonedOnFailure;
import org.rocprofsys.core.output.OutputContext;
import org.rocprofsys.core.output.OutputFormat;
import org.rocprofsys.core.output.OutputWriter;
import org.rocprofsys.core.output.WrittenFile;

/**
 * The rocpd SQLite database (ROCPROFSYS_USE_ROCPD): {@code rocpd[-<pid>].db} in the output folder,
 * or in ROCPROFSYS_DATABASE_DIR (an environment variable upstream reads directly, not a setting).
 */
public final class RocpdFormat implements OutputFormat {
    public static final String DATABASE_DIR = "ROCPROFSYS_DATABASE_DIR";

    private final UnaryOperator<String> environment;

    public RocpdFormat() {
        this(System::getenv);
    }

    /** @param environment the collector's environment variables (tests give their own) */
    public RocpdFormat(UnaryOperator<String> environment) {
        this.environment = environment;
    }

    @Override
    public boolean enabled(Settings settings) {
        return settings.bool("ROCPROFSYS_USE_ROCPD");
    }

    /** The database directory must be creatable and writable before the target runs. */
    @Override
    public void checkBeforeLaunch(Settings settings, OutputPaths paths) throws IOException {
        Path dir = directory(paths);
        Path existing = dir.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null || !Files.isDirectory(existing)) {
            throw new IOException("cannot write the rocpd database in " + dir + ": "
                    + (existing == null ? "no such directory" : existing + " is not a directory"));
        }
        if (!Files.isWritable(existing)) {
            throw new IOException("cannot write the rocpd database in " + dir + ": " + existing + " is not writable");
        }
    }

    @Override
    public OutputWriter open(OutputContext context) throws IOException {
        Path file = file(context.paths());
        OutputPaths.createParentDirectories(file);
        List<String> counters = org.rocprofsys.core.counters.CpuEvents.regionCounters(context.settings());
        return new Writer(RocpdSink.create(file, context.rootPid(), counters), file, context);
    }

    /** {@code rocpd[-<pid>].db} in the database directory. */
    Path file(OutputPaths paths) {
        String name = Path.of(paths.fileName("rocpd", "db")).getFileName().toString();
        String dir = environment.apply(DATABASE_DIR);
        return dir == null || dir.isBlank()
                ? paths.file("rocpd", "db")
                : directory(paths).resolve(name);
    }

    private Path directory(OutputPaths paths) {
        String dir = environment.apply(DATABASE_DIR);
        if (dir == null || dir.isBlank()) {
            return paths.file("rocpd", "db").toAbsolutePath().getParent();
        }
        return Path.of(dir);
    }

    private record Writer(RocpdSink sink, Path file, OutputContext context)
            implements AbandonedOnFailure { // rows are committed while the program runs
        /**
         * Removes the database that could not be completed (a full disk), with its journal: no
         * partial file is left. The error names the database and the cause.
         */
        @Override
        public IOException abandon(IOException e) {
            try {
                sink.close();
            } catch (IOException closing) {
                e.addSuppressed(closing);
            }
            for (String suffix : List.of("", "-journal", "-wal", "-shm")) {
                try {
                    Files.deleteIfExists(file.resolveSibling(file.getFileName() + suffix));
                } catch (IOException removing) {
                    e.addSuppressed(removing);
                }
            }
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            String reason = cause.getMessage() != null && cause.getMessage().contains("SQLITE_FULL")
                    ? "No space left on device"
                    : AtomicFile.reason(e);
            return new FileWriteException(file, reason, e);
        }

        @Override
        public List<WrittenFile> report() {
            context.announce("rocpd", file);
            return List.of(new WrittenFile("sqlite", "rocpd", file));
        }
    }
}
