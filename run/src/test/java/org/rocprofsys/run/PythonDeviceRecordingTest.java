package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.rocprofsys.tracetest.DecodedTrace;

/**
 * Profiles recorded on the device machine with Python 3.12.3 (the sys.monitoring engine; the CI
 * machine has 3.11 only): rocprof-sys-python -b --label file line [-a] -- builtin.py -v 10 -n 5
 * and rocprof-sys-run -- python3.12 source.py -v 5 -n 5 -s 3, checked as upstream validates them.
 */
class PythonDeviceRecordingTest {
    private static Path recorded(String test, String file) throws URISyntaxException {
        return Path.of(PythonDeviceRecordingTest.class
                .getResource("/python-device-3.12/" + test + "/" + file)
                .toURI());
    }

    @Test
    void builtinOnPython312() throws Exception {
        for (String test : List.of("python-builtin", "python-builtin-annotated")) {
            assertEquals(PythonProfiles.BUILTIN, PythonProfiles.timemory(recorded(test, "trip_count.json")), test);
            DecodedTrace trace = DecodedTrace.read(recorded(test, "perfetto-trace.proto"));
            assertEquals(PythonProfiles.BUILTIN, PythonProfiles.perfetto(trace, Set.of("python")), test);
        }
        DecodedTrace annotated = DecodedTrace.read(recorded("python-builtin-annotated", "perfetto-trace.proto"));
        for (DecodedTrace.Slice s : annotated.slices) {
            if ("python".equals(s.category)) {
                assertTrue(
                        s.args.keySet()
                                .containsAll(List.of("file", "line", "lasti", "argcount", "nlocals", "stacksize")),
                        s.args::toString);
            }
        }
        DecodedTrace plain = DecodedTrace.read(recorded("python-builtin", "perfetto-trace.proto"));
        assertFalse(plain.slices.stream().anyMatch(s -> s.args.containsKey("lasti")));
    }

    @Test
    void sourceOnPython312() throws Exception {
        assertEquals(PythonProfiles.SOURCE, PythonProfiles.timemory(recorded("python-source", "trip_count.json")));
        DecodedTrace trace = DecodedTrace.read(recorded("python-source", "perfetto-trace.proto"));
        assertEquals(PythonProfiles.SOURCE, PythonProfiles.perfetto(trace, Set.of("python", "user")));
    }
}
