package org.rocprofsys.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads "Key:   123 kB" lines of /proc files. */
final class ProcStatus {
    private ProcStatus() {}

    /** The value of {@code key} in kB, or -1 when the file or the key is missing. */
    static long kb(Path file, String key) {
        try {
            for (String l : Files.readAllLines(file)) {
                if (l.startsWith(key + ":")) {
                    return Long.parseLong(l.substring(key.length() + 1).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    static long kb(long pid, String key) {
        return kb(Path.of("/proc/" + pid + "/status"), key);
    }
}
