package org.rocprofsys.core.launch;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Where execvp would find a command's program: the path itself when it has a '/', else PATH. */
public final class ProgramPath {
    private static final String DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

    private ProgramPath() {}

    /** The places execvp would try, in order. */
    public static List<Path> candidates(String program, Map<String, String> env, Path cwd) {
        if (program.contains("/")) {
            return List.of(cwd.resolve(program));
        }
        List<Path> out = new ArrayList<>();
        for (String dir : env.getOrDefault("PATH", DEFAULT_PATH).split(File.pathSeparator)) {
            out.add(cwd.resolve(dir.isEmpty() ? "." : dir).resolve(program));
        }
        return out;
    }

    /** The first candidate that is an executable regular file. */
    public static Optional<Path> find(String program, Map<String, String> env, Path cwd) {
        return candidates(program, env, cwd).stream()
                .filter(p -> Files.isRegularFile(p) && Files.isExecutable(p))
                .findFirst();
    }
}
