package org.rocprofsys.core.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.rocprofsys.ffm.LibC;

/**
 * An output folder named in bytes a Java string cannot carry (ROCPROFSYS_OUTPUT_PATH=$'out\xe9'):
 * the JVM's charset would decode them lossily and the output names keep only ASCII, so the
 * outputs would land elsewhere. The folder is made from its bytes (FFM mkdir), and then reached by
 * a {@link Path} that holds them: java.nio's paths keep the bytes of the names a directory listing
 * gives, and a child resolved from such a path keeps them too.
 */
final class RawOutputDirectory {
    private RawOutputDirectory() {}

    /** The folder {@code raw} names (relative to the working directory {@code cwd}), made if missing. */
    static Path create(byte[] raw, Path cwd) throws SessionException {
        List<byte[]> parts = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= raw.length; i++) {
            if (i == raw.length || raw[i] == '/') {
                if (i > start) {
                    parts.add(Arrays.copyOfRange(raw, start, i));
                }
                start = i + 1;
            }
        }
        boolean absolute = raw.length > 0 && raw[0] == '/';
        Path current = absolute ? Path.of("/") : cwd;
        int end = absolute ? 1 : 0;
        for (byte[] part : parts) {
            end = indexAfter(raw, part, end);
            byte[] soFar = Arrays.copyOf(raw, end);
            LibC.Result made = LibC.mkdir(soFar, 0777);
            if (made.value() < 0 && made.errno() != LibC.EEXIST) {
                throw new SessionException("cannot create the output folder '" + new String(raw, NativeText.charset())
                        + "': " + LibC.strerror(made.errno()));
            }
            String name = new String(part, NativeText.charset());
            current = NativeText.representable(name, part) ? current.resolve(name) : listed(current, soFar, raw);
        }
        return current;
    }

    /** The end of {@code part} found at or after {@code from} in {@code raw}. */
    private static int indexAfter(byte[] raw, byte[] part, int from) {
        for (int i = from; i + part.length <= raw.length; i++) {
            if (Arrays.equals(raw, i, i + part.length, part, 0, part.length)) {
                return i + part.length;
            }
        }
        return raw.length;
    }

    /** The entry of {@code dir} that is the folder {@code soFar} names, as its listing gives it. */
    private static Path listed(Path dir, byte[] soFar, byte[] raw) throws SessionException {
        LibC.Result fd = LibC.openRead(soFar);
        if (fd.value() < 0) {
            throw new SessionException("cannot open the output folder '" + new String(raw, NativeText.charset()) + "': "
                    + LibC.strerror(fd.errno()));
        }
        Path self = Path.of("/proc/self/fd/" + fd.value());
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                if (Files.isDirectory(p) && Files.isSameFile(p, self)) {
                    return p;
                }
            }
        } catch (IOException e) {
            throw new SessionException("cannot list " + dir + ": " + e.getMessage());
        } finally {
            LibC.close((int) fd.value());
        }
        throw new SessionException(
                "cannot find the output folder '" + new String(raw, NativeText.charset()) + "' in " + dir);
    }

    /** Whether ROCPROFSYS_OUTPUT_PATH's {@code value} needs this: it has other than ASCII and no %key%. */
    static boolean needed(String value) {
        return value.chars().anyMatch(c -> c > 0x7f) && !value.contains("%");
    }

    static Optional<Path> of(String value, byte[] raw, Path cwd) throws SessionException {
        return needed(value) ? Optional.of(create(raw, cwd)) : Optional.empty();
    }
}
