package org.rocprofsys.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rocprofsys.config.Install;
import org.rocprofsys.ffm.ThreadNice;
import org.rocprofsys.rocprofv3.cli.Rocprofv3Invocation;
import org.rocprofsys.rocprofv3.cli.Rocprofv3Options;
import org.rocprofsys.rocprofv3.cli.Rocprofv3UsageException;

/**
 * {@code rocprofv3 [options] -- <application>}: rocprofv3's options become settings of the run
 * (Rocprofv3Options), and the application runs in the same session as rocprof-sys-run's, whose
 * registration list holds rocprofv3's bundle. Exits with the application's exit code, or 2 for a
 * command line argparse would refuse.
 */
public final class Rocprofv3Command {
    static final String TOOL = "rocprofv3";

    private Rocprofv3Command() {}

    public static void main(String[] args) throws InterruptedException {
        ThreadNice.lowerJitCompilersSoon(); // as RunCommand's: the target comes first
        StartupWarmUp.soon();
        int rc = run(args, System.getenv(), Path.of("").toAbsolutePath(), Install.prefix(), System.out, System.err);
        RunCommand.exit(rc);
    }

    static int run(String[] args, Map<String, String> env, Path cwd, Path prefix, PrintStream out, PrintStream err)
            throws InterruptedException {
        Rocprofv3Invocation inv;
        try {
            inv = Rocprofv3Options.parse(List.of(args), hostname(), env);
        } catch (Rocprofv3UsageException e) {
            err.println(Rocprofv3Options.USAGE);
            err.println(TOOL + ": error: " + e.getMessage());
            return Rocprofv3UsageException.EXIT_CODE;
        }
        if (inv.help()) {
            out.print(Rocprofv3Options.help());
            return 0;
        }
        inv.notices().forEach(err::println);
        Map<String, String> environment = new HashMap<>(env);
        environment.putAll(inv.settings());
        List<String> runArgs = new ArrayList<>();
        runArgs.add("--");
        runArgs.addAll(inv.command());
        return new RunCommand(TOOL, prefix, environment, cwd, out, err).run(runArgs.toArray(String[]::new));
    }

    private static String hostname() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            return "localhost";
        }
    }
}
