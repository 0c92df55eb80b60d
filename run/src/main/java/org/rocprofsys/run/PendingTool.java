package org.rocprofsys.run;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.rocprofsys.config.ConfigException;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;

/**
 * The entry point of a tool whose issue has not landed yet. It still reads the configuration
 * (environment and {@code -c} files), so configuration errors are reported exactly as the real tool
 * will report them, then says plainly that the tool does not exist yet and exits non-zero.
 */
public final class PendingTool {
    static final int CONFIG_ERROR = 1;
    static final int NOT_IMPLEMENTED = 2;

    private static final Map<String, String> LANDS_WITH = Map.of("rocprof-sys-python", "Python support");

    private PendingTool() {}

    public static void main(String[] args) {
        String tool = args[0];
        List<String> rest = List.of(args).subList(1, args.length);
        System.exit(run(tool, rest, System.getenv(), Path.of("").toAbsolutePath()));
    }

    static int run(String tool, List<String> args, Map<String, String> env, Path cwd) {
        SettingsLoader loader = new SettingsLoader(SettingsRegistry.standard(), env, cwd);
        List<String> configFiles = configFiles(args);
        if (!configFiles.isEmpty()) {
            loader.commandLine("ROCPROFSYS_CONFIG_FILE", String.join(":", configFiles));
        }
        try {
            Settings settings = loader.load();
            settings.warnings().forEach(w -> System.err.println("[" + tool + "] warning: " + w));
        } catch (ConfigException e) {
            System.err.println("[" + tool + "] error: " + e.getMessage());
            return CONFIG_ERROR;
        }
        System.err.println("[" + tool + "] not implemented yet: " + tool + " lands with "
                + LANDS_WITH.getOrDefault(tool, "a later issue") + "; nothing was run.");
        return NOT_IMPLEMENTED;
    }

    /** The files of {@code -c/--config FILE...} before {@code --}, as rocprof-sys-run takes them. */
    static List<String> configFiles(List<String> args) {
        java.util.ArrayList<String> files = new java.util.ArrayList<>();
        boolean inConfig = false;
        for (String a : args) {
            if (a.equals("--")) {
                break;
            }
            if (a.equals("-c") || a.equals("--config")) {
                inConfig = true;
            } else if (a.startsWith("--config=")) {
                files.add(a.substring("--config=".length()));
                inConfig = false;
            } else if (a.startsWith("-")) {
                inConfig = false;
            } else if (inConfig) {
                files.add(a);
            }
        }
        return files;
    }
}
