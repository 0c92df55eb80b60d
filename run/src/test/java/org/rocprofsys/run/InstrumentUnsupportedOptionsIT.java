package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.NativeCompiler;
import org.rocprofsys.testkit.ProcessResult;

/**
 * Issue 11 item 5 for rocprof-sys-instrument, end to end: an option accepted for compatibility
 * that has no effect gives one warning naming it, on stderr, and a runtime instrumentation lists it
 * in metadata.json as rocprof-sys-run lists its own; the code coverage modes, which would record
 * nothing, are refused before anything is written or run.
 */
class InstrumentUnsupportedOptionsIT extends DistributionTest {
    private static final String MPI_WARNING =
            "[rocprof-sys-instrument] warning: --mpi (command line) is not supported yet and has no effect";
    private static final String PREFER_WARNING = "[rocprof-sys-instrument] warning: --prefer shared (command line)"
            + " is not supported yet and has no effect";

    private Path program;
    private ProcessResult plain;

    @BeforeEach
    void buildProgram() throws Exception {
        program = NativeCompiler.build(
                REPO.resolve("examples/rewrite-caller.c"), cwd.resolve("rewrite-caller"), "-O0", "-g");
        plain = launch(program, cwd, Map.of(), "7");
        assertEquals(0, plain.exitCode(), plain::toString);
        assertTrue(plain.stdout().contains("number of calls made = 7"), plain::toString);
    }

    private ProcessResult instrument(String name, String... args) throws Exception {
        // ROCPROFSYS_CI is not supported either: off, it adds no warning of its own
        return tool(
                "rocprof-sys-instrument", environment(name, "ROCPROFSYS_PROFILE", "ON", "ROCPROFSYS_CI", "OFF"), args);
    }

    private static long lines(ProcessResult r, String line) {
        return r.stderr().lines().filter(line::equals).count();
    }

    /** key=value of metadata.json's not_supported list, the list rocprof-sys-run writes its own to. */
    private List<String> notSupported(String name) throws Exception {
        JsonNode list = new ObjectMapper()
                .readTree(outputRoot().resolve(name).resolve("metadata.json").toFile())
                .get("rocprofiler-systems")
                .get("metadata")
                .get("not_supported");
        List<String> keys = new ArrayList<>();
        list.forEach(n -> keys.add(n.get("key").asText() + "=" + n.get("value").asText()));
        return keys;
    }

    /** A run-time instrumentation that fails before its run still says, once, what had no effect. */
    @Test
    void aFailureBeforeTheRunStillWarnsOnce() throws Exception {
        var r = instrument(
                "missing", "--mpi", "--", cwd.resolve("no-such-program").toString());
        assertNotEquals(0, r.exitCode(), r::toString);
        assertEquals(1, lines(r, MPI_WARNING), r::toString);
        assertTrue(r.stderr().contains("no-such-program"), r::toString);
    }

    @Test
    void atRunTimeEachIsWarnedOnceAndListedInMetadata() throws Exception {
        var r = instrument(
                "runtime", "--mpi", "--prefer", "shared", "-i", "1", "-R", "^outer$", "--", program.toString(), "7");
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(plain.stdout(), r.stdout(), r::toString);
        assertEquals(1, lines(r, MPI_WARNING), r::toString);
        assertEquals(1, lines(r, PREFER_WARNING), r::toString);
        assertEquals(
                2,
                r.stderr().lines().filter(l -> l.contains("not supported yet")).count(),
                r::toString);
        assertEquals(List.of("--prefer=shared", "--mpi="), notSupported("runtime"));

        var clean = instrument("clean", "-i", "1", "-R", "^outer$", "--", program.toString(), "7");
        assertEquals(0, clean.exitCode(), clean::toString);
        assertFalse(clean.stderr().contains("not supported yet"), clean::toString);
        assertEquals(List.of(), notSupported("clean"));
    }

    /** The settings' own warnings at run time come once too (instrument and run both load them). */
    @Test
    void atRunTimeADeprecatedNameIsWarnedOnce() throws Exception {
        var r = tool(
                "rocprof-sys-instrument",
                environment("deprecated", "ROCPROFSYS_USE_TIMEMORY", "ON", "ROCPROFSYS_CI", "OFF"),
                argv("-i 1 -R ^outer$ --", program.toString(), "7"));
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(plain.stdout(), r.stdout(), r::toString);
        assertEquals(
                1,
                lines(
                        r,
                        "[rocprof-sys-instrument] warning: environment: ROCPROFSYS_USE_TIMEMORY is deprecated;"
                                + " use ROCPROFSYS_PROFILE instead"),
                r::toString);
        assertTrue(Files.isRegularFile(outputRoot().resolve("deprecated/wall_clock.json")), r::toString);
    }

    @Test
    void aRewriteWarnsOnceAndItsBinaryRunsAsTheOriginal() throws Exception {
        var r = instrument("rewrite", "--mpi", "-o", "rc.inst", "-i", "1", "-R", "^outer$", "--", program.toString());
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(1, lines(r, MPI_WARNING), r::toString);
        assertEquals(
                1,
                r.stderr().lines().filter(l -> l.contains("not supported yet")).count(),
                r::toString);
        assertEquals(
                plain.stdout(),
                launch(cwd.resolve("rc.inst"), cwd, Map.of(), "7").stdout());
    }

    @Test
    void codeCoverageIsRefusedBeforeAnythingIsWrittenOrRun() throws Exception {
        for (List<String> coverage : List.of(List.of("-M", "coverage"), List.of("--coverage", "basic_block"))) {
            String option = String.join(" ", coverage);
            List<String> rewrite = new ArrayList<>(coverage);
            rewrite.addAll(List.of("-o", "cov.inst", "--", program.toString()));
            var rw = instrument("cov-rewrite", rewrite.toArray(String[]::new));
            assertNotEquals(0, rw.exitCode(), rw::toString);
            assertTrue(
                    rw.stderr()
                            .contains("[rocprof-sys-instrument] error: code coverage (" + option
                                    + ") is not supported yet"),
                    rw::toString);
            assertFalse(Files.exists(cwd.resolve("cov.inst")), option + " wrote a binary\n" + rw);

            List<String> runtime = new ArrayList<>(coverage);
            runtime.addAll(List.of("--", program.toString(), "7"));
            var rt = instrument("cov-runtime", runtime.toArray(String[]::new));
            assertNotEquals(0, rt.exitCode(), rt::toString);
            assertTrue(rt.stderr().contains("code coverage (" + option + ") is not supported yet"), rt::toString);
            assertFalse(rt.stdout().contains("number of calls made"), option + " ran the program\n" + rt);
            assertFalse(Files.exists(outputRoot()), option + " wrote outputs\n" + rt);
        }
    }
}
