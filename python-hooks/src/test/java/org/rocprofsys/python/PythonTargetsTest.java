package org.rocprofsys.python;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.TraceEvent;

/** Which stage a run's Python targets get: the package on PYTHONPATH or a plain interpreter. */
class PythonTargetsTest {
    @TempDir
    Path dir;

    @Test
    void thePackageIsOnPathWhereAnEntryHoldsIt() throws Exception {
        Path site = dir.resolve("site-packages");
        Files.createDirectories(site.resolve("rocprofsys"));
        Files.writeString(site.resolve("rocprofsys/__init__.py"), "");
        assertTrue(PythonTargets.packageOnPath("/nowhere:" + site));
        assertFalse(PythonTargets.packageOnPath(dir.toString()));
        assertFalse(PythonTargets.packageOnPath(null));
        assertFalse(PythonTargets.packageOnPath(""));
    }

    @Test
    void aPlainInterpreterKeepsEveryEventAndIsToldOnce() {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        List<TraceEvent> out = new ArrayList<>();
        PythonTargets targets = new PythonTargets(false, false, new PrintStream(log, true, StandardCharsets.UTF_8));
        var stage = targets.intercept(out::add);
        assertInstanceOf(PlainInterpreterNotice.class, stage);
        List<TraceEvent> in = List.of(
                new ProcessStarted(1, 10, 1, "/bin/bash", List.of("bash"), 0, 0),
                new ProcessStarted(2, 10, 1, "/usr/bin/python3.11", List.of("python3"), 0, 1),
                new ProcessStarted(3, 11, 10, "/usr/bin/python3.11", List.of("python3"), 10, 0));
        in.forEach(stage);
        assertEquals(in, out);
        String said = log.toString(StandardCharsets.UTF_8);
        assertEquals(1, said.lines().count(), said);
        assertTrue(said.contains("python3.11 is profiled as a plain program"), said);
        assertTrue(said.contains("rocprof-sys-python"), said);
        assertInstanceOf(InterpreterMainRegion.class, new PythonTargets(false, true, System.err).intercept(out::add));
    }
}
