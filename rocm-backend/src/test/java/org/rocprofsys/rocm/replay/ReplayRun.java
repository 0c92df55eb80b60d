package org.rocprofsys.rocm.replay;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;
import org.rocprofsys.core.event.ProcessEnd;
import org.rocprofsys.core.pipeline.Collector;
import org.rocprofsys.core.pipeline.Pipeline;
import org.rocprofsys.rocm.source.RocmTracing;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.tracetest.CollectedRun;
import org.rocprofsys.tracetest.DecodedTrace;
import org.rocprofsys.tracetest.RunFiles;

/**
 * One replayed session end to end: the scripted program runs under the real agent with the
 * environment {@link RocmTracing} gives a profiled target (ROCP_TOOL_LIBRARIES and the tool's
 * settings), our replay SDK loads the tool and replays the scenario, and the ring file goes
 * through the {@link Collector} with RocmTracing's record decoder, the {@link Pipeline}, and the
 * run's Perfetto and GPU stats outputs, as a profiled run writes them.
 */
record ReplayRun(ProcessResult target, DecodedTrace trace, Path outputDir, JsonNode metadata, String log) {

    static ReplayRun of(String scenario, Map<String, String> settingsEnv, Path dir, String... args) throws Exception {
        ReplayBuild b = ReplayBuild.get();
        List<String> cmd = new java.util.ArrayList<>(List.of(b.app().toString(), scenario));
        cmd.addAll(List.of(args));
        return of(cmd, scenario, settingsEnv, dir);
    }

    /** {@code command} as a profiled target (the opt-in real-SDK test runs a HIP program this way). */
    static ReplayRun of(List<String> cmd, String scenario, Map<String, String> settingsEnv, Path dir) throws Exception {
        ReplayBuild b = ReplayBuild.get();
        Path out = dir.resolve("out");
        Files.createDirectories(out);
        Map<String, String> env = new HashMap<>(settingsEnv);
        env.put("HOME", dir.toString());
        env.putIfAbsent("ROCPROFSYS_TRACE", "true");
        Settings settings = new SettingsLoader(SettingsRegistry.standard(), env, dir).load();
        ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
        PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);
        List<RocmTracing> sources = RocmTracing.sources(settings, b.tool(), log);
        if (sources.size() != 1) {
            throw new AssertionError("no ROCm source for " + settingsEnv + ": " + logBytes);
        }
        RocmTracing rocm = sources.getFirst();
        try (CollectedRun.Session session = CollectedRun.Session.create(dir)) {
            Map<String, String> targetEnv = new HashMap<>(rocm.targetEnvironment(session.path()));
            targetEnv.put("LD_PRELOAD", b.agent().toString());
            targetEnv.put("ROCPROFSYS_SESSION_DIR", session.path().toString());
            targetEnv.put("ROCPROFSYS_AGENT_CLOCK", "monotonic");
            ProcessResult r = Command.of(cmd).env(targetEnv).run();
            int pid;
            try (var files = Files.list(session.path())) {
                Path ring = files.filter(p -> p.toString().endsWith(".ring"))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("no ring file: " + r.all()));
                pid = Integer.parseInt(ring.getFileName().toString().split("\\.")[0]);
            }
            CollectedRun run = session.collect(
                    settings,
                    dir,
                    pid,
                    "./replay_app",
                    scenario,
                    log,
                    CollectedRun.gpuFormats(org.rocprofsys.rocm.decode.RocmGpu.VENDOR),
                    List.of(rocm),
                    List.of(),
                    r.exitCode() > 128 ? ProcessEnd.KILLED_BY_SIGNAL : ProcessEnd.EXITED,
                    r.exitCode() > 128 ? r.exitCode() - 128 : r.exitCode());
            return new ReplayRun(
                    r, run.trace(), run.paths().directory(), run.metadata(), logBytes.toString(StandardCharsets.UTF_8));
        }
    }

    /** The names of the files the run wrote. */
    List<String> fileNames() {
        try (var files = Files.list(outputDir)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The run's rocpd database (written with ROCPROFSYS_USE_ROCPD). */
    Path rocpdFile() {
        return fileNames().stream()
                .filter(f -> f.startsWith("rocpd") && f.endsWith(".db"))
                .findFirst()
                .map(outputDir::resolve)
                .orElseThrow(() -> new AssertionError("no rocpd database in " + fileNames()));
    }

    /** The text file {@code name}[-pid].txt of the run. */
    String file(String name) {
        return statsFile(name, "txt");
    }

    /** A stats file of the run ({@code kernel_stats}, ...; {@code csv} or {@code json}). */
    String statsFile(String table, String extension) {
        return RunFiles.statsFile(outputDir, table, extension);
    }
}
