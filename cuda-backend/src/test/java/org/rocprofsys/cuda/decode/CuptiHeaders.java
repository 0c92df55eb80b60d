package org.rocprofsys.cuda.decode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** Where the CUDA toolkit's CUPTI headers are on this machine (CUDA_HOME, then /usr/local/cuda*). */
final class CuptiHeaders {
    private CuptiHeaders() {}

    static Optional<Path> includeDir() {
        List<Path> candidates = new ArrayList<>();
        String home = System.getenv("CUDA_HOME");
        if (home != null && !home.isEmpty()) {
            candidates.add(Path.of(home, "include"));
        }
        candidates.add(Path.of("/usr/local/cuda/include"));
        try (Stream<Path> s = Files.list(Path.of("/usr/local"))) {
            s.filter(p -> p.getFileName().toString().startsWith("cuda-"))
                    .sorted()
                    .forEach(p -> candidates.add(p.resolve("include")));
        } catch (IOException e) {
            if (!Files.notExists(Path.of("/usr/local"))) {
                throw new UncheckedIOException(e);
            }
        }
        return candidates.stream()
                .filter(p -> Files.isRegularFile(p.resolve("cupti.h")))
                .findFirst();
    }
}
