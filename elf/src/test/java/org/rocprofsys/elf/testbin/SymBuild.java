package org.rocprofsys.elf.testbin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.NativeCompiler;
import org.rocprofsys.testkit.ResourceFiles;

/**
 * Builds the test programs of the elf module's test resources {@code symbols/} (shared with the
 * sampler's tests through the test jar) and reads the nm oracle.
 */
public final class SymBuild {
    private SymBuild() {}

    public static final Path OUT = Path.of("target/test-native/symbols").toAbsolutePath();

    /** The source file {@code name} of the resources, copied out next to the outputs. */
    public static Path source(String name) throws IOException {
        return ResourceFiles.copy(
                SymBuild.class, "/symbols/" + name, OUT.resolve("src").resolve(name));
    }

    /** Builds the resource {@code source} into {@code OUT/output} (skipped without a compiler). */
    public static Path compile(String source, String output, String... flags) throws IOException, InterruptedException {
        return NativeCompiler.build(source(source), OUT.resolve(output), flags);
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
        for (String line : Command.of(cmd).ok().split("\n")) {
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
