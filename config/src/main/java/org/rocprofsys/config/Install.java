package org.rocprofsys.config;

import java.nio.file.Path;

/**
 * Where the running distribution is installed: the one reader of the install prefix, which the
 * distribution's launcher scripts pass as {@code -Drocprofsys.prefix} (libexec/launch,
 * libexec/aot-cache.sh).
 */
public final class Install {
    /** The system property the launcher scripts set to the distribution's root. */
    public static final String PREFIX_PROPERTY = "rocprofsys.prefix";

    private Install() {}

    /** The install prefix (bin/, lib/, include/, share/); the working directory when no launcher set it. */
    public static Path prefix() {
        return Path.of(System.getProperty(PREFIX_PROPERTY, "."));
    }

    /** The distribution's lib/: the agent, the GPU backends' libraries, the jars. */
    public static Path lib() {
        return prefix().resolve("lib");
    }
}
