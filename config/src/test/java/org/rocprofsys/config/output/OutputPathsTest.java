package org.rocprofsys.config.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OutputPathsTest {
    private static final Path WD = Path.of("/work/dir");
    private static final OutputKeys KEYS = new OutputKeys(ppid -> 1);

    private static OutputSettings settings(String path, String prefix, boolean time, boolean usePid, String perfetto) {
        return new OutputSettings(path, prefix, time, "%F_%H.%M", usePid, perfetto);
    }

    private static OutputPaths paths(OutputSettings s) {
        return new OutputPaths(s, Contexts.app(), WD, OptionalInt.empty(), KEYS);
    }

    private static OutputPaths plain(String prefix) {
        return paths(settings("out", prefix, false, false, "perfetto-trace.proto"));
    }

    @Test
    void defaultsGiveTaggedFolderTimeFolderAndPidSuffix() {
        OutputPaths p = paths(OutputSettings.defaults());
        assertEquals("rocprofsys-%tag%-output/2025-08-09_13.05", p.directoryTemplate());
        assertEquals("rocprofsys-app-output/2025-08-09_13.05/wall_clock-1234.txt", p.fileName("wall_clock", "txt"));
        assertEquals(
                Path.of("/work/dir/rocprofsys-app-output/2025-08-09_13.05/wall_clock-1234.txt"),
                p.file("wall_clock", "txt"));
        assertEquals(Path.of("/work/dir/rocprofsys-app-output/2025-08-09_13.05"), p.directory());
    }

    @Test
    void usePidOff() {
        OutputPaths p = paths(settings("out", "", false, false, "perfetto-trace.proto"));
        assertEquals("", p.suffix());
        assertEquals("out/wall_clock.txt", p.fileName("wall_clock", "txt"));
    }

    @Test
    void usePidOn() {
        OutputPaths p = paths(settings("out", "", false, true, "perfetto-trace.proto"));
        assertEquals("-1234", p.suffix());
        assertEquals("out/wall_clock-1234.json", p.fileName("wall_clock", "json"));
    }

    @Test
    void rankReplacesPidAndForcesSuffix() {
        var off = new OutputPaths(
                settings("out", "", false, false, "perfetto-trace.proto"), Contexts.app(), WD, OptionalInt.of(0), KEYS);
        assertEquals("out/wall_clock-0.txt", off.fileName("wall_clock", "txt"));
        var on = new OutputPaths(
                settings("out", "", false, true, "perfetto-trace.proto"), Contexts.app(), WD, OptionalInt.of(3), KEYS);
        assertEquals(Path.of("/work/dir/out/perfetto-trace-3.proto"), on.perfettoFile());
    }

    @Test
    void theLaunchersRankNamesTheOutputsBeforeMpiSaysIt() {
        var ctx = Contexts.of(List.of("app"), Map.of("OMPI_COMM_WORLD_RANK", "1"), Map.of());
        var p = new OutputPaths(
                settings("out", "", false, false, "perfetto-trace.proto"), ctx, WD, OptionalInt.empty(), KEYS);
        assertEquals("out/wall_clock-1.txt", p.fileName("wall_clock", "txt"));
        assertEquals(Path.of("/work/dir/out/perfetto-trace-1.proto"), p.perfettoFile());
        // a rank given outright wins over the environment's
        var given = new OutputPaths(
                settings("out", "", false, false, "perfetto-trace.proto"), ctx, WD, OptionalInt.of(0), KEYS);
        assertEquals("-0", given.suffix());
    }

    @Test
    void timeOutput() {
        assertEquals(
                "out/2025-08-09_13.05/a.txt",
                paths(settings("out", "", true, false, "p.proto")).fileName("a", "txt"));
        assertEquals(
                "out/2025-08-09_13.05/a.txt",
                paths(settings("out/", "", true, false, "p.proto")).fileName("a", "txt"));
        var custom = new OutputSettings("out", "", true, "%Y%m%d", false, "p.proto");
        assertEquals("out/20250809/a.txt", paths(custom).fileName("a", "txt"));
    }

    @Test
    void timeFolderNotAddedTwice() {
        assertEquals(
                "out/2025-08-09_13.05/a.txt",
                paths(settings("out/2025-08-09_13.05", "", true, false, "p.proto"))
                        .fileName("a", "txt"));
    }

    @Test
    void emptyOutputPath() {
        assertEquals(
                "2025-08-09_13.05/a.txt",
                paths(settings("", "", true, false, "p.proto")).fileName("a", "txt"));
        OutputPaths p = paths(settings("", "", false, false, "p.proto"));
        assertEquals("./a.txt", p.fileName("a", "txt"));
        assertEquals(Path.of("/work/dir/a.txt"), p.file("a", "txt"));
    }

    @Test
    void prefixJoining() {
        assertEquals("out/run-wall_clock.txt", plain("run").fileName("wall_clock", "txt"));
        assertEquals("out/run-wall_clock.txt", plain("run-").fileName("wall_clock", "txt"));
        assertEquals("out/run_wall_clock.txt", plain("run_").fileName("wall_clock", "txt"));
        assertEquals("out/run.wall_clock.txt", plain("run.").fileName("wall_clock", "txt"));
        assertEquals("out/sub/wall_clock.txt", plain("sub/").fileName("wall_clock", "txt"));
    }

    @Test
    void componentSubdirectory() {
        assertEquals(
                "out/instrumentation/available.txt", plain("").fileName("available", "txt", "instrumentation", false));
        assertEquals("out/run/causal/experiments.json", plain("run/").fileName("experiments", "json", "causal", true));
        assertEquals("out/causal/run-experiments.json", plain("run-").fileName("experiments", "json", "causal", true));
        assertEquals("out/run/causal/experiments.json", plain("run").fileName("experiments", "json", "causal/", true));
        var withPid = paths(settings("out", "", false, true, "p.proto"));
        assertEquals("out/causal/experiments-1234.coz", withPid.fileName("experiments", "coz", "causal", true));
        assertEquals(
                "out/instrumentation/excluded.json", withPid.fileName("excluded", "json", "instrumentation", false));
    }

    @ParameterizedTest
    @CsvSource(textBlock = """
            '',  sub, sub/
            p/,  sub, p/sub/
            p-,  sub, sub/p-
            p,   sub, p/sub/
            p,   '',  p
            """)
    void subdirectoryRulesDirectly(String prefix, String subdirectory, String expected) {
        assertEquals(expected, OutputPaths.withSubdirectory(prefix, subdirectory));
    }

    @Test
    void extensionHandling() {
        OutputPaths p = paths(settings("out", "", false, true, "p.proto"));
        assertEquals("out/metadata-1234.json", p.fileName("metadata.json", "json"));
        assertEquals("out/wall_clock-1234.txt", p.fileName("wall_clock", ".txt"));
        assertEquals("out/noext-1234", p.fileName("noext", ""));
        // only a first occurrence at the very end counts, as upstream
        assertEquals("out/x.json.json-1234.json", p.fileName("x.json.json", "json"));
    }

    @Test
    void keysInPathAndPrefix() {
        var s = new OutputSettings("%env{SCRATCH}%/%tag%-%arg3%-out", "%arg1%_%arg2%_", false, "%F", false, "p.proto");
        var ctx = Contexts.of(List.of("/usr/bin/app", "10", "4"), Map.of("SCRATCH", "/scratch"), Map.of());
        var p = new OutputPaths(s, ctx, WD, OptionalInt.empty(), KEYS);
        assertEquals("/scratch/app-out/10_4_wall_clock.txt", p.fileName("wall_clock", "txt"));
        assertEquals(Path.of("/scratch/app-out/10_4_wall_clock.txt"), p.file("wall_clock", "txt"));
    }

    @Test
    void nonAsciiRemovedFromSettingsButNotFromValues() {
        var s = new OutputSettings("résultats-%tag%", "ü%arg1%-", false, "%F", false, "p.proto");
        var ctx = Contexts.of(List.of("app", "é"));
        var p = new OutputPaths(s, ctx, WD, OptionalInt.empty(), KEYS);
        assertEquals("rsultats-app/é-wall_clock.txt", p.fileName("wall_clock", "txt"));
        assertEquals("rsultats-%tag%/%arg1%-", p.prefixTemplate(""));
    }

    @Test
    void absoluteOutputPathIgnoresWorkingDirectory() {
        assertEquals(
                Path.of("/abs/out/a.txt"),
                paths(settings("/abs/out", "", false, false, "p")).file("a", "txt"));
    }

    @Test
    void perfettoDefaultGoesToOutputFolder() {
        assertEquals(
                Path.of("/work/dir/rocprofsys-app-output/2025-08-09_13.05/perfetto-trace-1234.proto"),
                paths(OutputSettings.defaults()).perfettoFile());
    }

    @Test
    void perfettoFolderIsExplicitAndRelativeToWorkingDirectory() {
        var p = paths(new OutputSettings("out", "run-", true, "%F", true, "traces/run.pftrace"));
        assertEquals(Path.of("/work/dir/traces/run-1234.pftrace"), p.perfettoFile());
    }

    @Test
    void perfettoAbsoluteFolderWithKeys() {
        var p = paths(settings("out", "", false, true, "/tmp/t/%tag%.proto"));
        assertEquals(Path.of("/tmp/t/app-1234.proto"), p.perfettoFile());
    }

    @Test
    void perfettoExtensionFromName() {
        assertEquals(
                Path.of("/work/dir/out/trace.json"),
                paths(settings("out", "", false, false, "trace.json")).perfettoFile());
        assertEquals(
                Path.of("/work/dir/out/mytrace.proto"),
                paths(settings("out", "", false, false, "mytrace")).perfettoFile());
        assertEquals(
                Path.of("/work/dir/out/trace..proto"),
                paths(settings("out", "", false, false, "trace.")).perfettoFile());
    }

    @Test
    void perfettoOfChildProcessAlwaysHasPid() {
        var p = paths(settings("out", "", false, false, "perfetto-trace.proto"));
        assertEquals(Path.of("/work/dir/out/perfetto-trace.proto"), p.perfettoFile());
        assertEquals(Path.of("/work/dir/out/perfetto-trace-4321.proto"), p.perfettoFile(4321));
    }

    @Test
    void createsDirectories(@TempDir Path wd) throws IOException {
        var p = new OutputPaths(OutputSettings.defaults(), Contexts.app(), wd, OptionalInt.empty(), KEYS);
        Path dir = p.createDirectory();
        assertEquals(wd.resolve("rocprofsys-app-output/2025-08-09_13.05"), dir);
        assertTrue(Files.isDirectory(dir));
        Path nested = p.file("available", "txt", "instrumentation", false);
        assertEquals(nested, OutputPaths.createParentDirectories(nested));
        assertTrue(Files.isDirectory(dir.resolve("instrumentation")));
        OutputPaths.createParentDirectories(nested); // already there: no error
    }
}
