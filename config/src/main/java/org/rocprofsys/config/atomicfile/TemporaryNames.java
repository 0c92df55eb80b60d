package org.rocprofsys.config.atomicfile;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;

/**
 * Unguessable names for a run's temporary files and folders (the atomic files' temporaries, the
 * session folder), from the kernel's random source. {@code Files.createTempFile} and {@code new
 * SecureRandom()} draw theirs from a SecureRandom, whose security providers took 10-25 ms of every
 * run's start-up to initialise; reading {@code /dev/urandom} takes microseconds and is what the
 * default SecureRandom reads for its bytes anyway. Where that file cannot be read, a SecureRandom
 * is made after all.
 */
public final class TemporaryNames {
    private static final Path URANDOM = Path.of("/dev/urandom");
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_FILE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_FOLDER =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
    /** Names tried before a folder where every one exists already is given up on. */
    private static final int ATTEMPTS = 100;

    private TemporaryNames() {}

    /** {@code bytes} random bytes as lower-case hex digits. */
    public static String randomHex(int bytes) {
        byte[] b = new byte[bytes];
        try (InputStream in = Files.newInputStream(URANDOM)) {
            if (in.readNBytes(b, 0, bytes) == bytes) {
                return HexFormat.of().formatHex(b);
            }
        } catch (IOException | UnsupportedOperationException e) {
            // no /dev/urandom here: the JDK's own source below
        }
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /**
     * Creates a new empty file {@code dir/prefix<random>suffix} that only its owner can read and
     * write, as {@code Files.createTempFile} does.
     */
    public static Path createFile(Path dir, String prefix, String suffix) throws IOException {
        return createNew(() -> Files.createFile(dir.resolve(prefix + randomHex(8) + suffix), OWNER_ONLY_FILE));
    }

    /** Creates a new folder {@code dir/prefix<random>} that only its owner can enter. */
    public static Path createFolder(Path dir, String prefix) throws IOException {
        return createNew(() -> Files.createDirectory(dir.resolve(prefix + randomHex(6)), OWNER_ONLY_FOLDER));
    }

    /** Makes one file or folder under a new random name. */
    private interface Attempt {
        Path create() throws IOException;
    }

    /** Tries new names until one does not exist yet. */
    private static Path createNew(Attempt attempt) throws IOException {
        for (int i = 0; ; i++) {
            try {
                return attempt.create();
            } catch (FileAlreadyExistsException e) {
                if (i == ATTEMPTS) {
                    throw e;
                }
            }
        }
    }
}
