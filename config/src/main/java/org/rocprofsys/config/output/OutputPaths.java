package org.rocprofsys.config.output;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * Names of output folders and files (timemory {@code settings::compose_output_filename} and
 * {@code get_global_output_prefix}, rocprof-sys {@code get_perfetto_output_filename}).
 *
 * <pre>
 * folder = OUTPUT_PATH [+ "/" + strftime(TIME_FORMAT)]          (TIME_OUTPUT on)
 * prefix = folder + "/" + OUTPUT_PREFIX, with a component subdirectory put in
 * file   = prefix [+ "-"] + name [+ "-" + rank-or-pid] + "." + ext, then %keys% expanded
 * </pre>
 *
 * Names come back in two forms: the string upstream would print (relative when the settings
 * are relative) and a {@link Path} resolved against the target's working directory.
 */
public final class OutputPaths {
    static final String DEFAULT_PERFETTO_EXTENSION = "proto";

    private final OutputSettings settings;
    private final LaunchContext ctx;
    private final Path workingDirectory;
    private final OptionalInt rank;
    private final OutputKeys keys;

    /**
     * @param workingDirectory where relative names are anchored (the target's cwd)
     * @param rank             the MPI rank once known; it then replaces the pid as suffix and
     *                         forces the suffix on, as rocprof-sys does after MPI_Comm_rank. Empty:
     *                         the rank a launcher put in the context's environment, if any
     *                         ({@link LauncherRank})
     */
    public OutputPaths(OutputSettings settings, LaunchContext ctx, Path workingDirectory, OptionalInt rank) {
        this(settings, ctx, workingDirectory, rank, new OutputKeys());
    }

    public OutputPaths(
            OutputSettings settings, LaunchContext ctx, Path workingDirectory, OptionalInt rank, OutputKeys keys) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.ctx = Objects.requireNonNull(ctx, "ctx");
        this.workingDirectory = workingDirectory.toAbsolutePath();
        this.rank = Objects.requireNonNull(rank, "rank").isPresent() ? rank : LauncherRank.of(ctx.environment());
        this.keys = Objects.requireNonNull(keys, "keys");
    }

    /**
     * OUTPUT_PATH plus the launch-time folder, keys not expanded yet. The time folder is not
     * added twice when OUTPUT_PATH already names it. An empty OUTPUT_PATH means "." here;
     * upstream would compose "/file", i.e. write to the filesystem root.
     */
    public String directoryTemplate() {
        String dir = settings.outputPath();
        if (settings.timeOutput()) {
            String stamp = Strftime.format(settings.timeFormat(), ctx.launchTime());
            if (!dir.contains(stamp)) {
                if (!dir.isEmpty() && !dir.endsWith("/")) {
                    dir += "/";
                }
                dir += stamp;
            }
        }
        return dir.isEmpty() ? "." : dir;
    }

    /** The output folder, keys expanded, resolved against the working directory. */
    public Path directory() {
        return resolve(keys.expand(asciiOnly(directoryTemplate()), ctx));
    }

    /** folder + "/" + OUTPUT_PREFIX with {@code subdirectory} put in; keys not expanded. */
    public String prefixTemplate(String subdirectory) {
        return asciiOnly(directoryTemplate() + "/" + withSubdirectory(settings.outputPrefix(), subdirectory));
    }

    /** The MPI rank the outputs are named by, when known. */
    public OptionalInt rank() {
        return rank.isPresent() && rank.getAsInt() >= 0 ? rank : OptionalInt.empty();
    }

    /** "-<rank>" when a rank is known, else "-<pid>" with USE_PID, else nothing. */
    public String suffix() {
        if (rank.isPresent() && rank.getAsInt() >= 0) {
            return "-" + rank.getAsInt();
        }
        return settings.usePid() ? "-" + ctx.pid() : "";
    }

    /** e.g. {@code fileName("wall_clock", "txt")}: the name upstream prints, keys expanded. */
    public String fileName(String name, String extension) {
        return fileName(name, extension, "", true);
    }

    /**
     * @param subdirectory component folder such as "instrumentation" or "causal"; "" for none
     * @param useSuffix    false for files that never carry the pid (instrumentation lists)
     */
    public String fileName(String name, String extension, String subdirectory, boolean useSuffix) {
        return keys.expand(join(prefixTemplate(subdirectory), name, useSuffix ? suffix() : "", extension), ctx);
    }

    public Path file(String name, String extension) {
        return resolve(fileName(name, extension));
    }

    public Path file(String name, String extension, String subdirectory, boolean useSuffix) {
        return resolve(fileName(name, extension, subdirectory, useSuffix));
    }

    /**
     * A file named as usual ({@code name} + suffix + extension, keys expanded) but in {@code folder}
     * instead of OUTPUT_PATH/OUTPUT_PREFIX (e.g. UNIFIED_MEMORY_OUTPUT_PATH); a relative folder is
     * anchored at the target's working directory.
     */
    public Path fileIn(String folder, String name, String extension, String suffix) {
        String dir = folder.endsWith("/") ? folder : folder + "/";
        return resolve(keys.expand(join(asciiOnly(dir), name, suffix, extension), ctx));
    }

    /** The trace of the profiled process itself: PERFETTO_FILE with the usual suffix. */
    public Path perfettoFile() {
        return perfetto(suffix());
    }

    /** The trace of a child process {@code pid}, which always carries "-<pid>". */
    public Path perfettoFile(long childPid) {
        return perfetto("-" + childPid);
    }

    /**
     * A folder in PERFETTO_FILE is used as given instead of OUTPUT_PATH/TIME_OUTPUT/OUTPUT_PREFIX;
     * the extension is the name's own, "proto" when it has none. (Upstream, a name without any
     * '.' gets itself as extension, "trace" becoming "trace.trace", through an index wrap-around;
     * the documented "default proto" is followed instead.)
     */
    private Path perfetto(String suffix) {
        String name = settings.perfettoFile();
        String dir = "";
        int slash = name.lastIndexOf('/');
        if (slash >= 0) {
            dir = name.substring(0, slash + 1);
            name = name.substring(slash + 1);
        }
        String extension = DEFAULT_PERFETTO_EXTENSION;
        int dot = name.lastIndexOf('.');
        if (dot >= 0 && dot + 1 < name.length()) {
            extension = name.substring(dot + 1);
            name = name.substring(0, dot);
        }
        String prefix = dir.isEmpty() ? prefixTemplate("") : asciiOnly(dir);
        return resolve(keys.expand(join(prefix, name, suffix, extension), ctx));
    }

    /** Creates the folders {@code file} will be written into. */
    public static Path createParentDirectories(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        return file;
    }

    public Path createDirectory() throws IOException {
        return Files.createDirectories(directory());
    }

    /** Normalised so "./" from an empty OUTPUT_PATH does not show up in printed paths. */
    Path resolve(String name) {
        Path p = Path.of(name);
        return (p.isAbsolute() ? p : workingDirectory.resolve(p)).normalize();
    }

    /**
     * Where a component subdirectory goes relative to OUTPUT_PREFIX: after a prefix ending in
     * '/', before one ending in '-' (so "run-" gives "causal/run-experiments.json"), otherwise
     * the prefix becomes a folder of its own.
     */
    static String withSubdirectory(String prefix, String subdirectory) {
        if (subdirectory.isEmpty()) {
            return prefix;
        }
        String sub = subdirectory.endsWith("/") ? subdirectory : subdirectory + "/";
        if (prefix.isEmpty()) {
            return sub;
        }
        if (prefix.endsWith("-")) {
            return sub + prefix;
        }
        if (prefix.endsWith("/")) {
            return prefix + sub;
        }
        return prefix + "/" + sub;
    }

    /**
     * prefix [+ "-" when it ends in a letter or digit] + name + suffix + "." + extension. A name
     * already ending in the extension loses it, but only when its first occurrence is that
     * ending, as upstream checks.
     */
    static String join(String prefix, String name, String suffix, String extension) {
        String ext = extension.isEmpty() || extension.startsWith(".") ? extension : "." + extension;
        if (!ext.isEmpty() && name.length() >= ext.length() && name.indexOf(ext) == name.length() - ext.length()) {
            name = name.substring(0, name.length() - ext.length());
        }
        StringBuilder out = new StringBuilder(prefix);
        if (!prefix.isEmpty() && isAsciiAlphanumeric(prefix.charAt(prefix.length() - 1))) {
            out.append('-');
        }
        return out.append(name).append(suffix).append(ext).toString();
    }

    /**
     * Upstream strips non-ASCII from the settings-derived prefix before expanding keys, so
     * values such as arguments keep theirs.
     */
    static String asciiOnly(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean isAsciiAlphanumeric(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }
}
