package org.rocprofsys.run;

import java.nio.file.Path;
import java.util.List;
import org.rocprofsys.config.Install;
import org.rocprofsys.ffm.ThreadNice;

/**
 * {@code rocprof-sys-sample [options] -- <command>}: runs the command with call-stack sampling on
 * (USE_SAMPLING), through the same session as rocprof-sys-run.
 */
public final class SampleCommand {
    static final String TOOL = "rocprof-sys-sample";

    private SampleCommand() {}

    public static void main(String[] args) throws InterruptedException {
        ThreadNice.lowerJitCompilersSoon(); // as RunCommand's: the target comes first
        StartupWarmUp.soon();
        Path prefix = Install.prefix();
        List<String> given = List.of(args);
        int rc = new RunCommand(
                        TOOL,
                        prefix,
                        SampleArguments.environment(given, System.getenv()),
                        Path.of("").toAbsolutePath(),
                        System.out,
                        System.err)
                .run(args);
        RunCommand.exit(rc);
    }
}
