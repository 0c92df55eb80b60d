package org.rocprofsys.elf;

import java.io.IOException;
import java.nio.file.Path;
import org.rocprofsys.elf.testbin.SymBuild;
import org.rocprofsys.testkit.Command;

/** The CFI tests' program (a function with a GCC cold part, a static function) and its stripped copies. */
final class CfiPrograms {
    private CfiPrograms() {}

    /** {@code symbols/cold.c} built with -O2 -g (GCC splits {@code work.cold} off) and {@code flags}. */
    static Path cold(String output, String... flags) throws IOException, InterruptedException {
        String[] all = new String[flags.length + 2];
        all[0] = "-O2";
        all[1] = "-g";
        System.arraycopy(flags, 0, all, 2, flags.length);
        return SymBuild.compile("cold.c", output, all);
    }

    /** A copy of {@code exe} without any symbols or debug information ({@code objcopy --strip-all}). */
    static Path stripped(Path exe, String output, String... objcopyFlags) throws IOException, InterruptedException {
        Path out = exe.resolveSibling(output);
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of("objcopy", "--strip-all"));
        cmd.addAll(java.util.List.of(objcopyFlags));
        cmd.add(exe.toString());
        cmd.add(out.toString());
        Command.of(cmd).ok();
        return out;
    }
}
