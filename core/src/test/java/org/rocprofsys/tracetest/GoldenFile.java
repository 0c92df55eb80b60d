package org.rocprofsys.tracetest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Compares a test's output with a checked-in expected file under src/test/resources/golden.
 * {@code -Dgolden.update=true} rewrites the expected file instead (review the diff before committing).
 */
public final class GoldenFile {
    private static final Path DIR = Path.of("src", "test", "resources", "golden");

    private GoldenFile() {}

    public static void assertMatches(String name, String actual) throws IOException {
        Path expected = DIR.resolve(name);
        if (Boolean.getBoolean("golden.update")) {
            Files.createDirectories(DIR);
            Files.writeString(expected, actual, StandardCharsets.UTF_8);
        }
        assertEquals(Files.readString(expected, StandardCharsets.UTF_8), actual, "differs from " + expected);
    }
}
