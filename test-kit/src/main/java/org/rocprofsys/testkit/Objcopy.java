package org.rocprofsys.testkit;

import java.io.IOException;
import java.nio.file.Path;

/** A program's debug information split into a file of its own, as distributions ship it (objcopy). */
public final class Objcopy {
    private Objcopy() {}

    /** {@code exe}'s debug information alone (objcopy --only-keep-debug) as {@code debug}. */
    public static Path keepDebugOnly(Path exe, Path debug) throws IOException, InterruptedException {
        Command.of("objcopy", "--only-keep-debug", exe.toString(), debug.toString())
                .ok();
        return debug;
    }

    /**
     * {@code exe} stripped with {@code strip} ({@code --strip-all} or {@code --strip-debug}) as {@code out},
     * with a .gnu_debuglink to {@code debug}; objcopy computes the CRC from the file it is given, the
     * link records only its base name.
     */
    public static Path stripLinked(Path exe, String strip, Path debug, Path out)
            throws IOException, InterruptedException {
        Command.of("objcopy", strip, "--add-gnu-debuglink=" + debug, exe.toString(), out.toString())
                .ok();
        return out;
    }

    /** Both: {@code exe}'s debug information as {@code debug}, and {@code exe} stripped and linked to it as {@code out}. */
    public static Path split(Path exe, String strip, Path debug, Path out) throws IOException, InterruptedException {
        keepDebugOnly(exe, debug);
        return stripLinked(exe, strip, debug, out);
    }
}
