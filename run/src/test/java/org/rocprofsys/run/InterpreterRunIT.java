package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.tracetest.DecodedTrace;

/**
 * Issue 35, item 7: a plain interpreter run has a profile. {@code rocprof-sys-run -T -P -- python3
 * script.py} wrote no wall_clock file and a trace of 0 slices (the interpreter's main region was left
 * out for every Python process); through a shell shim that execs the interpreter (as pyenv's) only
 * the shell appeared. As upstream, the interpreter's process has its main region named after the
 * executable, and the run says once that rocprof-sys-python gives Python functions.
 */
class InterpreterRunIT extends DistributionTest {
    private static final Path PYTHON = Path.of("/usr/bin/python3");

    /** A known amount of work, in Python. */
    private static final String SCRIPT = """
            total = 0
            for i in range(300000):
                total += i * i
            print(total)
            """;

    private static final String NOTICE = "rocprof-sys-python -- script.py records its Python functions";

    @Test
    void python3ScriptHasItsMainRegionInTheProfileAndTheTrace() throws Exception {
        Path script = script();
        String exe = interpreterName();
        ProcessResult r =
                tool("rocprof-sys-run", environment("plain"), "-T", "-P", "--", PYTHON.toString(), script.toString());
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stdout().contains("8999955000050000"), r::toString); // the script ran as without us
        assertEquals(1, r.stderr().lines().filter(l -> l.contains(NOTICE)).count(), r::toString);
        Path dir = outputRoot().resolve("plain");

        assertEquals(List.of("0:" + exe + " laps 1"), profile(dir.resolve("wall_clock.json")));
        assertOneTopSliceNamed(dir.resolve("perfetto-trace.proto"), exe);
    }

    @Test
    void interpreterExecdByAShellShimIsProfiled() throws Exception {
        Path script = script();
        String exe = interpreterName();
        Path shim = cwd.resolve("python3");
        Files.writeString(
                shim, "#!/bin/bash\n# as pyenv's shims: find the interpreter, exec it\nexec " + PYTHON + " \"$@\"\n");
        Files.setPosixFilePermissions(shim, PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessResult r =
                tool("rocprof-sys-run", environment("shim"), "-T", "-P", "--", shim.toString(), script.toString());
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(1, r.stderr().lines().filter(l -> l.contains(NOTICE)).count(), r::toString);
        Path dir = outputRoot().resolve("shim");

        // the shell's image and the interpreter it exec'd, one after the other in the pid's profile
        String shell = Path.of("/bin/bash").toRealPath().getFileName().toString();
        List<String> profile = profile(dir.resolve("wall_clock.json"));
        assertTrue(profile.contains("0:" + exe + " laps 1"), profile::toString);
        assertTrue(profile.contains("0:" + shell + " laps 1"), profile::toString);
        assertOneTopSliceNamed(dir.resolve("perfetto-trace.proto"), exe);
    }

    /** The trace has one slice at depth 0 named {@code name}. */
    private static void assertOneTopSliceNamed(Path perfettoTrace, String name) throws Exception {
        DecodedTrace trace = DecodedTrace.read(perfettoTrace);
        assertEquals(
                1,
                trace.slices.stream()
                        .filter(s -> s.name.equals(name) && s.depth == 0)
                        .count(),
                trace.slices::toString);
    }

    private Path script() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(PYTHON), "no " + PYTHON);
        Path script = cwd.resolve("script.py");
        Files.writeString(script, SCRIPT);
        return script;
    }

    /** The interpreter's executable name, which names its main region (python3 is a link to it). */
    private static String interpreterName() throws Exception {
        return PYTHON.toRealPath().getFileName().toString();
    }

    /** "depth:label laps N" of every entry of a wall_clock JSON file's graph. */
    private static List<String> profile(Path json) throws Exception {
        assertTrue(Files.isRegularFile(json), json + " written");
        List<String> out = new ArrayList<>();
        for (JsonNode e : ProfileGraph.graph(json, "wall_clock")) {
            out.add(e.get("depth").asInt() + ":" + ProfileGraph.label(e) + " laps " + ProfileGraph.laps(e));
        }
        return out;
    }
}
