package org.rocprofsys.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class InstallTest {
    @Test
    void thePrefixIsTheLaunchersPropertyElseTheWorkingDirectory() {
        String before = System.getProperty(Install.PREFIX_PROPERTY);
        try {
            System.setProperty(Install.PREFIX_PROPERTY, "/opt/rocprof-sys");
            assertEquals(Path.of("/opt/rocprof-sys"), Install.prefix());
            assertEquals(Path.of("/opt/rocprof-sys/lib"), Install.lib());
            System.clearProperty(Install.PREFIX_PROPERTY);
            assertEquals(Path.of("."), Install.prefix());
            assertEquals(Path.of("./lib"), Install.lib());
        } finally {
            if (before != null) {
                System.setProperty(Install.PREFIX_PROPERTY, before);
            }
        }
    }
}
