package org.rocprofsys.sampler.symbols;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Builds the test programs of src/test/c/symbols/ and runs the binutils oracles (nm, addr2line, strip). */
final class SymBuild {
    private SymBuild() {
    }

    static final Path SRC = Path.of("src/test/c/symbols").toAbsolutePath();
    static final Path OUT = Path.of("target/test-native/symbols").toAbsolutePath();

    static Path compile(String source, String output, String... flags) throws IOException, InterruptedException {
        Files.createDirectories(OUT);
        Path exe = OUT.resolve(output);
        String cc = source.endsWith(".cpp") ? System.getenv().getOrDefault("CXX", "g++")
                : System.getenv().getOrDefault("CC", "gcc");
        List<String> cmd = new ArrayList<>(List.of(cc));
        cmd.addAll(List.of(flags));
        cmd.addAll(List.of("-o", exe.toString(), SRC.resolve(source).toString()));
        try {
            run(cmd);
        } catch (IOException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("cannot run")) {
                assumeTrue(false, "no compiler " + cc + ": " + e.getMessage());
            }
            throw e;
        }
        return exe;
    }

    static String run(List<String> cmd) throws IOException, InterruptedException {
        return run(cmd, null);
    }

    static String run(List<String> cmd, String stdin) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IOException("cannot run " + cmd.getFirst() + ": " + e.getMessage(), e);
        }
        if (stdin != null) {
            try (var in = p.getOutputStream()) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        } else {
            p.getOutputStream().close();
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("timeout: " + cmd);
        }
        if (p.exitValue() != 0 && !cmd.getFirst().startsWith("/")) {
            throw new IOException(String.join(" ", cmd) + " failed (" + p.exitValue() + "):\n" + out);
        }
        return out;
    }

    /** A defined symbol from {@code nm -S}. */
    record NmSym(String name, long value, long size, char type) {
    }

    /** Defined function symbols with a size, by (mangled) name, from {@code nm -S [--dynamic]}. */
    static Map<String, NmSym> nm(Path exe, boolean demangle) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("nm", "-S", "--defined-only"));
        if (demangle) {
            cmd.add("-C");
        }
        cmd.add(exe.toString());
        Map<String, NmSym> out = new HashMap<>();
        for (String line : run(cmd).split("\n")) {
            String[] f = line.split(" ", 4);
            if (f.length == 4 && (f[2].equals("T") || f[2].equals("t") || f[2].equals("W"))) {
                out.put(f[3], new NmSym(f[3], Long.parseUnsignedLong(f[0], 16), Long.parseUnsignedLong(f[1], 16),
                        f[2].charAt(0)));
            }
        }
        return out;
    }

    /** The 1-based line of the source line holding {@code marker}. */
    static int lineOf(String source, String marker) throws IOException {
        List<String> lines = Files.readAllLines(SRC.resolve(source));
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(marker)) {
                return i + 1;
            }
        }
        throw new IllegalArgumentException(marker);
    }
}
