package org.rocprofsys.elf.testbin;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Builds the test programs of the elf module's test resources {@code symbols/} (shared with the
 * sampler's tests through the test jar) and runs the binutils oracles (nm, addr2line, strip).
 */
public final class SymBuild {
    private SymBuild() {}

    public static final Path OUT = Path.of("target/test-native/symbols").toAbsolutePath();

    /** The source file {@code name} of the resources, copied out next to the outputs. */
    public static synchronized Path source(String name) throws IOException {
        Path src = OUT.resolve("src").resolve(name);
        if (!Files.exists(src)) {
            Files.createDirectories(src.getParent());
            try (InputStream in = SymBuild.class.getResourceAsStream("/symbols/" + name)) {
                if (in == null) {
                    throw new IOException("no test source symbols/" + name);
                }
                Files.copy(in, src);
            }
        }
        return src;
    }

    public static Path compile(String source, String output, String... flags) throws IOException, InterruptedException {
        Files.createDirectories(OUT);
        Path exe = OUT.resolve(output);
        String cc = source.endsWith(".cpp")
                ? System.getenv().getOrDefault("CXX", "g++")
                : System.getenv().getOrDefault("CC", "gcc");
        List<String> cmd = new ArrayList<>(List.of(cc));
        cmd.addAll(List.of(flags));
        cmd.addAll(List.of("-o", exe.toString(), source(source).toString()));
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

    public static String run(List<String> cmd) throws IOException, InterruptedException {
        return run(cmd, null);
    }

    public static String run(List<String> cmd, String stdin) throws IOException, InterruptedException {
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
    public record NmSym(String name, long value, long size, char type) {}

    /** Defined function symbols with a size, by (mangled) name, from {@code nm -S [--dynamic]}. */
    public static Map<String, NmSym> nm(Path exe, boolean demangle) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("nm", "-S", "--defined-only"));
        if (demangle) {
            cmd.add("-C");
        }
        cmd.add(exe.toString());
        Map<String, NmSym> out = new HashMap<>();
        for (String line : run(cmd).split("\n")) {
            String[] f = line.split(" ", 4);
            if (f.length == 4 && (f[2].equals("T") || f[2].equals("t") || f[2].equals("W"))) {
                out.put(
                        f[3],
                        new NmSym(
                                f[3],
                                Long.parseUnsignedLong(f[0], 16),
                                Long.parseUnsignedLong(f[1], 16),
                                f[2].charAt(0)));
            }
        }
        return out;
    }

    /** The 1-based line of the source line holding {@code marker}. */
    public static int lineOf(String source, String marker) throws IOException {
        List<String> lines = Files.readAllLines(source(source));
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(marker)) {
                return i + 1;
            }
        }
        throw new IllegalArgumentException(marker);
    }
}
