package org.rocprofsys.instrument.area;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs tools (cc, objdump, readelf, the programs under test) for the instrument tests. */
public final class Exec {
    private Exec() {}

    /** Exit code and the two outputs of a finished process. */
    public record Result(int exitCode, String stdout, String stderr) {}

    public static Result run(Path dir, Map<String, String> env, String... command)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command);
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        if (env != null) {
            pb.environment().putAll(env);
        }
        Process p = pb.start();
        p.getOutputStream().close();
        var out = p.getInputStream();
        var err = p.getErrorStream();
        byte[][] errBytes = new byte[1][];
        Thread t = Thread.ofVirtual().start(() -> {
            try {
                errBytes[0] = err.readAllBytes();
            } catch (IOException e) {
                errBytes[0] = new byte[0];
            }
        });
        byte[] outBytes = out.readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("timed out: " + String.join(" ", command));
        }
        t.join();
        return new Result(
                p.exitValue(),
                new String(outBytes, StandardCharsets.UTF_8),
                new String(errBytes[0], StandardCharsets.UTF_8));
    }

    /** Runs and requires exit code 0; returns stdout. */
    public static String ok(Path dir, String... command) throws IOException, InterruptedException {
        Result r = run(dir, null, command);
        if (r.exitCode() != 0) {
            throw new IOException(
                    String.join(" ", command) + " exited " + r.exitCode() + ":\n" + r.stderr() + r.stdout());
        }
        return r.stdout();
    }

    /** One disassembled instruction: address, raw bytes (hex, no spaces), text with single spaces. */
    public record Insn(long address, String hex, String text) {}

    /**
     * Disassembles raw x86-64 bytes at {@code vma} with {@code objdump -D -b binary -mi386:x86-64}
     * (Intel syntax), from {@code start} to {@code stop} (offsets in {@code file}).
     */
    public static List<Insn> objdumpBinary(Path file, long vma, long start, long stop)
            throws IOException, InterruptedException {
        String out = ok(
                null,
                "objdump",
                "-D",
                "-b",
                "binary",
                "-mi386:x86-64",
                "-M",
                "intel",
                "--adjust-vma=0x" + Long.toHexString(vma),
                "--start-address=0x" + Long.toHexString(vma + start),
                "--stop-address=0x" + Long.toHexString(vma + stop),
                file.toString());
        return parseObjdump(out);
    }

    /** Parses {@code objdump -d} lines "  addr:\tbytes\ttext"; continuation lines extend the bytes. */
    public static List<Insn> parseObjdump(String out) {
        List<Insn> insns = new ArrayList<>();
        for (String line : out.split("\n")) {
            String[] parts = line.split("\t");
            if (parts.length < 2 || !parts[0].trim().endsWith(":")) {
                continue;
            }
            String addr = parts[0].trim();
            addr = addr.substring(0, addr.length() - 1);
            long address;
            try {
                address = Long.parseUnsignedLong(addr, 16);
            } catch (NumberFormatException e) {
                continue;
            }
            String hex = parts[1].replace(" ", "");
            if (parts.length < 3) {
                if (!insns.isEmpty()) {
                    Insn last = insns.removeLast();
                    insns.add(new Insn(last.address(), last.hex() + hex, last.text()));
                }
                continue;
            }
            String text = parts[2].trim().replaceAll("\\s+", " ");
            insns.add(new Insn(address, hex, text));
        }
        return insns;
    }
}
