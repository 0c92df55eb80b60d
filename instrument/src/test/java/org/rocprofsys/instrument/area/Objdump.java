package org.rocprofsys.instrument.area;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocprofsys.testkit.Command;

/** objdump as the instrument tests' oracle of instruction boundaries and texts. */
public final class Objdump {
    private Objdump() {}

    /** One disassembled instruction: address, raw bytes (hex, no spaces), text with single spaces. */
    public record Insn(long address, String hex, String text) {}

    /**
     * Disassembles raw x86-64 bytes at {@code vma} with {@code objdump -D -b binary -mi386:x86-64}
     * (Intel syntax), from {@code start} to {@code stop} (offsets in {@code file}).
     */
    public static List<Insn> objdumpBinary(Path file, long vma, long start, long stop)
            throws IOException, InterruptedException {
        String out = Command.of(
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
                        file.toString())
                .ok();
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
