package org.rocprofsys.core.rocpd;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One rocpd SQLite file being written. Rows are gathered here, {@link Insert#ROWS_PER_STATEMENT}
 * per table at a time, with ids assigned here (so rows can reference rows not yet written); full
 * chunks go to the {@link SqliteWriter} thread, which owns the connection, as they fill, and
 * {@link #commit} sends what is left of every table, parents first, then the updates, then a
 * COMMIT. The caller's thread maps events to rows while the writer's thread is inside SQLite.
 */
final class RocpdDatabase implements AutoCloseable {
    /**
     * The rows of one table waiting for the writer: the current chunk (a row is {@code columns}
     * values, the id first) and the next id to give. A full chunk is one multi-row INSERT.
     */
    static final class Insert {
        /**
         * Rows per INSERT statement: one statement step per 256 rows instead of one per row
         * (SQLite's per-statement cost is larger than a row's), within SQLite's limit of 32766
         * parameters for the widest table (21 columns).
         */
        static final int ROWS_PER_STATEMENT = 256;

        private final RocpdDatabase db;
        final String sql;
        final String rowValues;
        final int columns;
        private Object[] chunk;
        private int base;
        private int rows;
        private long nextId = 1;
        private long pending;

        /**
         * Which of a row's values are bound ({@code false}: the statement has it as a literal).
         * Ids no row refers to are left to SQLite, which gives the same ones (AUTOINCREMENT: one
         * more than the largest, and rows arrive in id order), and a column given as
         * {@code name=value} is a constant of the statement: fewer values to bind per row.
         */
        final boolean[] bound;

        private Insert(RocpdDatabase db, String sql, String rowValues, int columns, boolean[] bound) {
            this.db = db;
            this.bound = bound;
            this.sql = sql;
            this.rowValues = rowValues;
            this.columns = columns;
            this.chunk = new Object[columns * ROWS_PER_STATEMENT];
        }

        /** Starts a row: sets its id (column 1) and returns it; the caller sets the rest, then {@link #add}. */
        long begin() {
            long id = nextId++;
            base = rows * columns;
            chunk[base] = id;
            return id;
        }

        /**
         * A whole row: its id (column 1, returned) and {@code values} for columns 2 on, in order
         * (a value's type is that of the argument: Long, Integer, Double, String, or null).
         */
        long row(Object... values) throws SQLException {
            long id = begin();
            System.arraycopy(values, 0, chunk, base + 1, values.length);
            add();
            return id;
        }

        void setLong(int column, long value) {
            chunk[base + column - 1] = value;
        }

        void setInt(int column, int value) {
            chunk[base + column - 1] = value;
        }

        void setDouble(int column, double value) {
            chunk[base + column - 1] = value;
        }

        void setString(int column, String value) {
            chunk[base + column - 1] = value;
        }

        void setNullableLong(int column, long value, boolean present) {
            chunk[base + column - 1] = present ? value : null;
        }

        void setNullableLong(int column, Long value) {
            chunk[base + column - 1] = value;
        }

        void add() throws SQLException {
            pending++;
            if (++rows == ROWS_PER_STATEMENT) {
                send();
            }
        }

        /** Hands the chunk (full or not) to the writer and starts a new one. */
        private void send() throws SQLException {
            if (rows > 0) {
                db.writer.insert(this, chunk, rows);
                chunk = new Object[columns * ROWS_PER_STATEMENT];
                rows = 0;
            }
        }
    }

    /** A prepared UPDATE of one table; its rows run at the next commit, after the inserts. */
    record Update(String sql) {}

    private final SqliteWriter writer;
    private final RocpdSchema schema;
    private final Map<String, Insert> inserts = new LinkedHashMap<>();
    private List<SqliteWriter.UpdateRow> updates = new ArrayList<>();

    private RocpdDatabase(SqliteWriter writer, RocpdSchema schema) {
        this.writer = writer;
        this.schema = schema;
    }

    /**
     * Creates {@code file} (replacing an older one) with the schema, committed.
     *
     * <p>The settings are for one writer appending a large run, and for a file that stays
     * consistent when the collector itself is killed: a rollback journal (appended pages are not
     * copied into it, so each page is written once, where WAL writes it twice), held under an
     * exclusive lock for the run, with {@code synchronous=OFF}: SQLite still writes the journal
     * before it changes the file, and the kernel keeps both when the process dies, so the next
     * opener finds the hot journal and rolls the unfinished transaction back to the last commit.
     * Only a crash of the machine itself (power, kernel) can leave a damaged file, which fsyncs
     * after every commit would prevent at a cost of the writer's throughput. The foreign keys are
     * declared but not enforced while writing: every id is given here, parents before children,
     * and enforcement (a lookup in each parent table per row) was 40% of the write time; the tests
     * run {@code PRAGMA foreign_key_check} on every database they write.
     */
    static RocpdDatabase create(Path file, RocpdSchema schema) throws IOException {
        for (String suffix : List.of("", "-wal", "-shm", "-journal")) {
            Files.deleteIfExists(file.resolveSibling(file.getFileName() + suffix));
        }
        Connection c = null;
        try {
            c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA locking_mode=EXCLUSIVE");
                s.execute("PRAGMA journal_mode=TRUNCATE");
                s.execute("PRAGMA synchronous=OFF");
                s.execute("PRAGMA foreign_keys=OFF");
                s.execute("PRAGMA cache_size=-16384");
            }
            c.setAutoCommit(false);
            schema.create(c);
            c.commit();
            return new RocpdDatabase(new SqliteWriter(c, file.getFileName().toString()), schema);
        } catch (SQLException e) {
            if (c != null) {
                try {
                    c.close();
                } catch (SQLException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw new IOException("cannot create the rocpd database " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The insert of {@code table} with the given columns after {@code id}; a column written
     * {@code name=value} is the same number in every row (the one node's id).
     */
    Insert insert(String table, String... columns) {
        Insert existing = inserts.get(table);
        if (existing != null) {
            return existing;
        }
        boolean[] bound = new boolean[columns.length + 1];
        bound[0] = !RocpdSchema.UNREFERENCED.contains(table);
        StringBuilder sql =
                new StringBuilder("INSERT INTO \"").append(schema.table(table)).append("\" (");
        StringBuilder values = new StringBuilder("(");
        if (bound[0]) {
            sql.append("\"id\", ");
            values.append("?, ");
        }
        for (int i = 0; i < columns.length; i++) {
            int equals = columns[i].indexOf('=');
            String name = equals < 0 ? columns[i] : columns[i].substring(0, equals);
            sql.append(i == 0 ? "\"" : ", \"").append(name).append('"');
            values.append(i == 0 ? "" : ", ")
                    .append(equals < 0 ? "?" : Long.toString(Long.parseLong(columns[i].substring(equals + 1))));
            bound[i + 1] = equals < 0;
        }
        values.append(')');
        sql.append(") VALUES ");
        Insert insert = new Insert(this, sql.toString(), values.toString(), columns.length + 1, bound);
        inserts.put(table, insert);
        return insert;
    }

    /** An UPDATE of {@code table}: {@code SET assignments WHERE where}. */
    Update update(String table, String assignments, String where) {
        return new Update("UPDATE \"" + schema.table(table) + "\" SET " + assignments + " WHERE " + where);
    }

    /** Runs {@code update} with {@code values} (its parameters in order) at the next commit. */
    void addUpdate(Update update, Object... values) {
        updates.add(new SqliteWriter.UpdateRow(update.sql(), values));
    }

    /** Rows given since the last commit. */
    long pending() {
        long n = 0;
        for (Insert i : inserts.values()) {
            n += i.pending;
        }
        return n;
    }

    /** Sends every table's rows, parents before children, then the updates, then a COMMIT. */
    void commit() throws SQLException {
        for (String table : RocpdSchema.TABLES) {
            Insert i = inserts.get(table);
            if (i != null) {
                i.send();
                i.pending = 0;
            }
        }
        if (!updates.isEmpty()) {
            writer.updates(updates);
            updates = new ArrayList<>();
        }
        writer.commit();
    }

    /** Waits until the writer has run every chunk, update and commit sent so far (tests). */
    void awaitWriter() throws SQLException {
        writer.await();
    }

    /**
     * Commits, waits for the writer, and leaves the file standing alone (the journal removed,
     * the lock released).
     */
    @Override
    public void close() throws SQLException {
        SQLException failure = null;
        try {
            commit();
        } catch (SQLException e) {
            failure = e;
        }
        try {
            writer.close(failure == null);
        } catch (SQLException e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
