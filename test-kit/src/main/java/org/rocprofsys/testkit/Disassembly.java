package org.rocprofsys.testkit;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** objdump's disassembly of an address range of a binary, as a test's oracle. */
public final class Disassembly {
    private Disassembly() {}

    /**
     * {@code objdump -d [options] --start-address=from --stop-address=to file}: the text objdump
     * prints for the instructions in [from, to).
     */
    public static String of(Path file, long from, long to, String... options) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of("objdump", "-d"));
        argv.addAll(List.of(options));
        argv.add("--start-address=0x" + Long.toHexString(from));
        argv.add("--stop-address=0x" + Long.toHexString(to));
        argv.add(file.toString());
        return Command.of(argv).ok();
    }
}
