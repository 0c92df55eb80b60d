package org.rocprofsys.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/** Test sources kept as classpath resources, written out as files for a compiler to read. */
public final class ResourceFiles {
    private ResourceFiles() {}

    /**
     * Writes the resource {@code name} (found from {@code anchor}'s class loader) to {@code target},
     * leaving an identical file untouched so that its builds stay up to date.
     */
    public static Path copy(Class<?> anchor, String name, Path target) throws IOException {
        byte[] bytes;
        try (InputStream in = anchor.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("no test resource " + name);
            }
            bytes = in.readAllBytes();
        }
        if (!Files.isRegularFile(target) || !Arrays.equals(Files.readAllBytes(target), bytes)) {
            Files.createDirectories(target.toAbsolutePath().getParent());
            Files.write(target, bytes);
        }
        return target;
    }
}
