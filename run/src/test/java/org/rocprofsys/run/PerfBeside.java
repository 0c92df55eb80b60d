package org.rocprofsys.run;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.ProcessResult;

/**
 * {@code perf record} on the same workload as a test's run, for comparing what the samples say
 * (shares and counts as ratios of the same work, never against the wall clock). The test is
 * skipped where perf does not work here.
 */
final class PerfBeside {
    /** One sample's leaf: perf's symbol (offset dropped), its dso, and whether its pc is the kernel's. */
    record Leaf(String symbol, String dso, boolean kernel) {}

    private PerfBeside() {}

    /**
     * The leaves of {@code perf record -e cpu-clock -F <freq> -g} of {@code shellCommand} (run by
     * sh in {@code dir}), one per sample.
     */
    static List<Leaf> leaves(Path dir, int freq, String shellCommand) throws Exception {
        return leaves(dir, "-e cpu-clock -F " + freq, shellCommand);
    }

    /**
     * The leaves of {@code perf record <options> -g} of {@code shellCommand} (run by sh in {@code
     * dir}, its output to perf.out), one per sample.
     */
    static List<Leaf> leaves(Path dir, String options, String shellCommand) throws Exception {
        ProcessResult rec = Command.of(
                        "sh", "-c", "perf record -q " + options + " -g -o perf.data -- " + shellCommand + " > perf.out")
                .in(dir)
                .run();
        assumeTrue(rec.exitCode() == 0, "perf record does not work here: " + rec.stderr());
        ProcessResult script = Command.of("perf", "script", "-i", "perf.data", "-F", "ip,sym,dso")
                .in(dir)
                .run();
        assumeTrue(script.exitCode() == 0, "perf script failed: " + script.stderr());
        List<Leaf> out = new ArrayList<>();
        boolean first = true;
        for (String line : script.stdout().split("\n")) {
            if (line.isBlank()) {
                first = true;
                continue;
            }
            if (!first) {
                continue;
            }
            first = false;
            // "ffffffff8123 read_zero+0x5 ([kernel.kallsyms])" or "1139 [unknown] (/tmp/libA.so)"
            String t = line.strip();
            int sp = t.indexOf(' ');
            boolean kernel = sp > 0 && Long.parseUnsignedLong(t.substring(0, sp), 16) < 0; // the upper half
            String rest = sp < 0 ? "[unknown] ([unknown])" : t.substring(sp + 1);
            int open = rest.lastIndexOf(" (");
            String sym = open < 0 ? rest : rest.substring(0, open);
            String dso = open < 0 ? "[unknown]" : rest.substring(open + 2, rest.length() - 1);
            out.add(new Leaf(sym.replaceFirst("\\+0x[0-9a-f]+$", ""), dso, kernel));
        }
        return out;
    }
}
