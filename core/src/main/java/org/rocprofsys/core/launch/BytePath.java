package org.rocprofsys.core.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.rocprofsys.ffm.LibC;

/**
 * A path named in bytes a Java string cannot carry (a program $'./prog\xe9\xff', an output folder
 * $'out\xe9'): Path.of would encode the JVM's lossy decoding of them. java.nio's paths keep the
 * bytes of the names a directory listing gives, and a child resolved from such a path keeps them
 * too; so each name that a string cannot carry is found in its parent's listing (the entry that is
 * the same file as the one the bytes open, through FFM).
 */
public final class BytePath {
    private BytePath() {}

    /** The path {@code raw} names, relative to the working directory {@code cwd}. */
    static Path of(byte[] raw, Path cwd) throws SessionException {
        return walk(raw, cwd, false);
    }

    /** The folder {@code raw} names, made first (with its parents) where missing. */
    static Path createDirectories(byte[] raw, Path cwd) throws SessionException {
        return walk(raw, cwd, true);
    }

    /**
     * {@code name} as a Path holding the bytes the user gave for it (found among this JVM's
     * arguments), relative to {@code cwd}; {@code cwd.resolve(name)} when the string carries them.
     */
    public static Path ofArgument(String name, Path cwd) {
        byte[] raw = NativeText.ofThisProcess().argumentBytes(name);
        if (NativeText.representable(name, raw)) {
            return cwd.resolve(name);
        }
        try {
            return of(raw, cwd);
        } catch (SessionException e) {
            return cwd.resolve(name); // not there: the caller says so, by the name the user knows
        }
    }

    /**
     * A file to be written, named by {@code name} as the user gave it (an option's value among this
     * JVM's arguments): its folders are made, and a last name a string cannot carry is found by
     * making a folder of that name for a moment (the Path keeps the bytes once it is gone).
     */
    public static Path ofNewFileArgument(String name, Path cwd) throws IOException {
        byte[] raw = NativeText.ofThisProcess().argumentBytes(name);
        if (NativeText.representable(name, raw)) {
            return cwd.resolve(name);
        }
        int slash = raw.length - 1;
        while (slash >= 0 && raw[slash] != '/') {
            slash--;
        }
        try {
            Path dir = slash < 0 ? cwd : createDirectories(Arrays.copyOf(raw, Math.max(slash, 1)), cwd);
            byte[] base = Arrays.copyOfRange(raw, slash + 1, raw.length);
            String baseName = text(base);
            if (NativeText.representable(baseName, base)) {
                return dir.resolve(baseName);
            }
            LibC.Result made = LibC.mkdir(raw, 0700);
            Path out = of(raw, cwd);
            if (made.value() == 0) {
                Files.delete(out);
            }
            return out;
        } catch (SessionException e) {
            throw new IOException(e.getMessage());
        }
    }

    private static Path walk(byte[] raw, Path cwd, boolean create) throws SessionException {
        boolean absolute = raw.length > 0 && raw[0] == '/';
        Path current = absolute ? Path.of("/") : cwd;
        int start = 0;
        for (int i = 0; i <= raw.length; i++) {
            if (i < raw.length && raw[i] != '/') {
                continue;
            }
            if (i > start) {
                byte[] part = Arrays.copyOfRange(raw, start, i);
                byte[] soFar = Arrays.copyOf(raw, i);
                if (create) {
                    LibC.Result made = LibC.mkdir(soFar, 0777);
                    if (made.value() < 0 && made.errno() != LibC.EEXIST) {
                        throw new SessionException(
                                "cannot create the folder '" + text(raw) + "': " + LibC.strerror(made.errno()));
                    }
                }
                String name = text(part);
                current = NativeText.representable(name, part) ? current.resolve(name) : listed(current, soFar, raw);
            }
            start = i + 1;
        }
        return current;
    }

    private static String text(byte[] raw) {
        return new String(raw, NativeText.charset());
    }

    /** The entry of {@code dir} that is the file {@code soFar} names, as its listing gives it. */
    private static Path listed(Path dir, byte[] soFar, byte[] raw) throws SessionException {
        LibC.Result fd = LibC.openRead(soFar);
        if (fd.value() < 0) {
            throw new SessionException("cannot open '" + text(raw) + "': " + LibC.strerror(fd.errno()));
        }
        Path self = Path.of("/proc/self/fd/" + fd.value());
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                if (Files.isSameFile(p, self)) {
                    return p;
                }
            }
        } catch (IOException e) {
            throw new SessionException("cannot list " + dir + ": " + e.getMessage());
        } finally {
            LibC.close((int) fd.value());
        }
        throw new SessionException("cannot find '" + text(raw) + "' in " + dir);
    }
}
