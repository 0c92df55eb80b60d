package org.rocprofsys.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rocprofsys.config.Install;
import org.rocprofsys.instrument.cli.InstrumentCli;
import org.rocprofsys.instrument.cli.InstrumentTool;

/**
 * {@code rocprof-sys-instrument}: the instrument module plans and writes; a runtime
 * instrumentation ({@code -- <CMD> <ARGS>} without {@code -o}) then runs the command like
 * rocprof-sys-run with the plan file in ROCPROFSYS_INSTRUMENT_PLAN, which the agent applies in
 * memory before main.
 */
public final class InstrumentCommand {
    private InstrumentCommand() {}

    public static void main(String[] args) throws InterruptedException {
        Path prefix = Install.prefix();
        int rc = run(prefix, System.getenv(), Path.of("").toAbsolutePath(), List.of(args));
        RunCommand.exit(rc);
    }

    static int run(Path prefix, Map<String, String> environment, Path cwd, List<String> args)
            throws InterruptedException {
        InstrumentTool.Outcome outcome = new InstrumentTool(environment, cwd, System.out, System.err).run(args);
        return switch (outcome) {
            case InstrumentTool.Outcome.Exit e -> e.status();
            case InstrumentTool.Outcome.Launch l -> {
                Map<String, String> env = new HashMap<>(environment);
                env.putAll(l.environment());
                List<String> runArgs = new ArrayList<>();
                runArgs.add("--");
                runArgs.addAll(l.command());
                try {
                    yield new RunCommand(InstrumentCli.TOOL, prefix, env, cwd, System.out, System.err)
                            .run(runArgs.toArray(String[]::new), l.unsupported());
                } finally {
                    if (l.planFile() != null) {
                        try {
                            Files.deleteIfExists(l.planFile());
                        } catch (IOException e) {
                            System.err.println("[" + InstrumentCli.TOOL + "] warning: cannot remove " + l.planFile());
                        }
                    }
                }
            }
        };
    }
}
