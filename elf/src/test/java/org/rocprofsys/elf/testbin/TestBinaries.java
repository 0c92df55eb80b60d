package org.rocprofsys.elf.testbin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Compiles small C/C++ programs for tests and runs binutils to get facts to compare against. */
public final class TestBinaries {
    private TestBinaries() {}

    /** Writes {@code source} to {@code dir/name.<ext>} and compiles it to {@code dir/name} with {@code flags}. */
    public static Path compile(Path dir, String name, String source, boolean cxx, String... flags)
            throws IOException, InterruptedException {
        Path src = dir.resolve(name + (cxx ? ".cpp" : ".c"));
        Files.writeString(src, source);
        Path out = dir.resolve(name);
        List<String> cmd = new ArrayList<>();
        cmd.add(cxx ? "g++" : "cc");
        cmd.addAll(List.of(flags));
        cmd.add("-o");
        cmd.add(out.toString());
        cmd.add(src.toString());
        run(cmd);
        return out;
    }

    public static Path compileC(Path dir, String name, String source, String... flags)
            throws IOException, InterruptedException {
        return compile(dir, name, source, false, flags);
    }

    /** Runs a command and returns its stdout; fails on a non-zero exit. */
    public static String run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("timed out: " + cmd);
        }
        if (p.exitValue() != 0) {
            throw new IOException(cmd + " failed (" + p.exitValue() + "): " + new String(err, StandardCharsets.UTF_8));
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    public static String run(String... cmd) throws IOException, InterruptedException {
        return run(List.of(cmd));
    }
}
