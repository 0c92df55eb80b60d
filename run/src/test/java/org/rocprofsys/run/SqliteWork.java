package org.rocprofsys.run;

/** A workload for Debian's sqlite3 in end-to-end tests, whose CPU time grows with its rows. */
final class SqliteWork {
    private SqliteWork() {}

    /** A script that inserts {@code rows} random rows into an indexed table in one transaction, then counts them. */
    static String script(int rows) {
        return """
                CREATE TABLE t(a INTEGER, b TEXT);
                CREATE INDEX tb ON t(b);
                BEGIN;
                WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<%d)
                  INSERT INTO t SELECT x, hex(randomblob(16)) FROM c;
                COMMIT;
                SELECT count(*) FROM t;
                """.formatted(rows);
    }
}
