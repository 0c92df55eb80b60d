package org.rocprofsys.tracetest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.ProcessResult;

/** The {@code sqlite3} command-line tool's word on a database (skipped where it is not installed). */
public final class SqliteCli {
    private SqliteCli() {}

    /** {@code PRAGMA integrity_check} says ok and {@code PRAGMA foreign_key_check} lists nothing. */
    public static void assertConsistent(Path db) throws Exception {
        Path cli = List.of(Path.of("/usr/bin/sqlite3"), Path.of("/usr/local/bin/sqlite3")).stream()
                .filter(Files::isExecutable)
                .findFirst()
                .orElse(null);
        assumeTrue(cli != null, "sqlite3 is not installed");
        ProcessResult r = Command.of(cli.toString(), db.toString(), "PRAGMA integrity_check; PRAGMA foreign_key_check;")
                .run();
        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals("ok\n", r.stdout(), "integrity_check, then no foreign_key_check row");
    }
}
