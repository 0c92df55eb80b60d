package org.rocprofsys.instrument.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rocprofsys.config.UnsupportedUse;

class InstrumentCliTest {

    private static InstrumentRequest parse(String... args) throws InstrumentUsageException {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--", "/bin/true"));
        return new InstrumentCli().parse(all);
    }

    @Test
    void optionsWithoutEffectAreNamedOnce() throws Exception {
        InstrumentRequest r = parse(
                "--log",
                "3",
                "--prefer",
                "static",
                "-L",
                "libfoo.so",
                "--load",
                "libbar.so",
                "--load-instr",
                "old.json",
                "--init-functions",
                "setup",
                "--fini-functions",
                "teardown",
                "--internal-library-deps",
                "--internal-library-append",
                "libz.so",
                "--internal-library-remove",
                "libm.so",
                "--mpi",
                "-l",
                "--traps",
                "--loop-traps",
                "--parse-all-modules",
                "-b",
                "4",
                "--dyninst-rt",
                "/x.so",
                "--dyninst-options",
                "SaveFPR");
        List<String> names = r.unsupported().stream().map(UnsupportedUse::name).toList();
        assertEquals(
                List.of(
                        "--log",
                        "--prefer",
                        "-L/--library",
                        "--load",
                        "--load-instr",
                        "--init-functions",
                        "--fini-functions",
                        "--mpi",
                        "-l/--instrument-loops",
                        "--traps",
                        "--loop-traps",
                        "--parse-all-modules",
                        "-b/--batch-size",
                        "--dyninst-rt",
                        "--dyninst-options"),
                names);
        assertEquals(
                "--log 3 (command line) is not supported yet and has no effect",
                r.unsupported().getFirst().message());
        assertEquals(
                "-L/--library libfoo.so (command line) is not supported yet and has no effect",
                r.unsupported().get(2).message());
        assertEquals(
                "--mpi (command line) is not supported yet and has no effect",
                r.unsupported().get(7).message());
        // a flag turned off asks for what happens anyway
        assertEquals(List.of(), parse("--mpi", "off", "-l", "false").unsupported());
    }

    @Test
    void optionsWithEffectAreNotNamed() throws Exception {
        InstrumentRequest r = parse(
                "-v",
                "1",
                "-e",
                "--simulate",
                "--print-format",
                "json",
                "-I",
                "foo",
                "-E",
                "bar",
                "-MI",
                "m",
                "--label",
                "file",
                "line",
                "--env",
                "A=B",
                "-i",
                "10",
                "-r",
                "20",
                "--linkage",
                "global",
                "--allow-overlapping",
                "--dynamic-callsites",
                "-m",
                "main2");
        assertEquals(List.of(), r.unsupported());
    }

    @Test
    void codeCoverageIsRefusedOutsideSimulate() throws Exception {
        for (String[] args : List.of(
                new String[] {"-M", "coverage"},
                new String[] {"--coverage", "function"},
                new String[] {"--coverage", "basic_block"},
                new String[] {"-o", "out.inst", "-M", "coverage"})) {
            InstrumentUsageException e = assertThrows(InstrumentUsageException.class, () -> parse(args));
            assertTrue(
                    e.getMessage().startsWith("code coverage (")
                            && e.getMessage().contains("is not supported yet"),
                    e.getMessage());
        }
        // the lists of what coverage would instrument are real
        assertEquals("coverage", parse("-M", "coverage", "--simulate").mode());
        assertEquals("function", parse("--coverage", "function", "--simulate").coverage());
        assertThrows(InstrumentUsageException.class, () -> parse("--coverage", "lines", "--simulate"));
    }
}
