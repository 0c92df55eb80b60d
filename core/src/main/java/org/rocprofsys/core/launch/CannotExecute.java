package org.rocprofsys.core.launch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.rocprofsys.ffm.LibC;

/** A command that cannot be executed, told as a shell tells it: 127 when not found, else 126. */
final class CannotExecute {
    static final int NOT_FOUND = 127;
    static final int NOT_EXECUTABLE = 126;
    private static final int EISDIR = 21;

    private CannotExecute() {}

    static SessionException of(String program, int errno) {
        return new SessionException(
                "cannot execute '" + program + "': " + LibC.strerror(errno),
                errno == LibC.ENOENT ? NOT_FOUND : NOT_EXECUTABLE);
    }

    /**
     * The error execvp would give for {@code program}, found before anything starts; empty when it
     * is executable, or when its name is not what the user typed (bytes the JVM could not decode:
     * the launch helper then finds out and says).
     */
    static Optional<SessionException> check(String program, Map<String, String> env, Path cwd, boolean decodable) {
        if (!decodable || ProgramPath.find(program, env, cwd).isPresent()) {
            return Optional.empty();
        }
        if (program.contains("/")) {
            Path p = cwd.resolve(program);
            int errno = Files.isDirectory(p) ? EISDIR : Files.exists(p) ? LibC.EACCES : LibC.ENOENT;
            return Optional.of(of(program, errno));
        }
        boolean exists = ProgramPath.candidates(program, env, cwd).stream()
                .anyMatch(p -> Files.exists(p) && !Files.isDirectory(p));
        return Optional.of(of(program, exists ? LibC.EACCES : LibC.ENOENT));
    }
}
