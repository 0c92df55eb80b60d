package org.rocprofsys.threading;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;

class ThreadingToolsTest {
    private static final Path LIB = Path.of("/opt/rocprof-sys/lib");

    @TempDir
    Path dir;

    private Map<String, String> targetEnvironment(Map<String, String> inherited, String... kv) throws Exception {
        Map<String, String> env = new HashMap<>(inherited);
        env.put("HOME", dir.toString());
        for (int i = 0; i + 1 < kv.length; i += 2) {
            env.put(kv[i], kv[i + 1]);
        }
        Settings settings = new SettingsLoader(SettingsRegistry.standard(), env, dir).load();
        return ThreadingTools.sources(settings, env, LIB).targetEnvironment(dir);
    }

    @Test
    void nothingByDefault() throws Exception {
        assertEquals(Map.of(), targetEnvironment(Map.of()));
    }

    @Test
    void lockFamiliesAsBits() throws Exception {
        assertEquals(
                Map.of("ROCPROFSYS_AGENT_LOCK_CALLS", "1"),
                targetEnvironment(Map.of(), "ROCPROFSYS_TRACE_THREAD_LOCKS", "ON"));
        assertEquals(
                Map.of("ROCPROFSYS_AGENT_LOCK_CALLS", "6"),
                targetEnvironment(
                        Map.of(),
                        "ROCPROFSYS_TRACE_THREAD_RW_LOCKS",
                        "ON",
                        "ROCPROFSYS_TRACE_THREAD_SPIN_LOCKS",
                        "ON"));
    }

    @Test
    void theOmptLibraryComesFirstOnce() throws Exception {
        String ours = "/opt/rocprof-sys/lib/librocprof-sys-ompt.so";
        assertEquals(Map.of("OMP_TOOL_LIBRARIES", ours), targetEnvironment(Map.of(), "ROCPROFSYS_USE_OMPT", "ON"));
        assertEquals(
                Map.of("OMP_TOOL_LIBRARIES", ours + ":libother.so"),
                targetEnvironment(Map.of("OMP_TOOL_LIBRARIES", "libother.so"), "ROCPROFSYS_USE_OMPT", "ON"));
        assertEquals(
                Map.of("OMP_TOOL_LIBRARIES", "libother.so:" + ours),
                targetEnvironment(Map.of("OMP_TOOL_LIBRARIES", "libother.so:" + ours), "ROCPROFSYS_USE_OMPT", "ON"));
    }

    @Test
    void kokkosLibraryAndItsSettings() throws Exception {
        String ours = "/opt/rocprof-sys/lib/librocprof-sys-kokkosp.so";
        assertEquals(
                Map.of(
                        "KOKKOS_TOOLS_LIBS", ours,
                        "KOKKOS_PROFILE_LIBRARY", ours,
                        "ROCPROFSYS_AGENT_KOKKOSP_PREFIX", "[kokkos]",
                        "ROCPROFSYS_AGENT_KOKKOSP_NAME_MAX", "40",
                        "ROCPROFSYS_AGENT_KOKKOSP_DEEP_COPY", "1"),
                targetEnvironment(
                        Map.of("KOKKOS_TOOLS_LIBS", "libtheirs.so"),
                        "ROCPROFSYS_USE_KOKKOSP",
                        "ON",
                        "ROCPROFSYS_KOKKOSP_PREFIX",
                        "[kokkos]",
                        "ROCPROFSYS_KOKKOSP_NAME_LENGTH_MAX",
                        "40",
                        "ROCPROFSYS_KOKKOSP_DEEP_COPY",
                        "ON"));
    }
}
