package org.rocprofsys.core.rocpd;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One rocpd SQLite file being written: a prepared, batched insert per table with ids assigned
 * here (so rows can reference rows still in a batch), and {@link #commit} flushing every batch,
 * parents first, in one transaction. The file is in WAL mode with foreign keys on: each commit is
 * durable against the collector's own end, so a file cut off at any moment opens as the
 * consistent database of the last commit.
 */
final class RocpdDatabase implements AutoCloseable {
    /**
     * A table's insert: the next id to give and the rows waiting. Rows are bound
     * {@link #ROWS_PER_STATEMENT} at a time into one multi-row INSERT (one statement step per 64
     * rows instead of one per row: about twice the rows per second); what is left at a commit goes
     * through the one-row statement.
     */
    static final class Insert {
        static final int ROWS_PER_STATEMENT = 64;

        private final PreparedStatement one;
        private final PreparedStatement many;
        private final int columns;
        private final Object[] row;
        private final Object[] buffered;
        private int bufferedRows;
        private long nextId = 1;
        private int pending;

        private Insert(PreparedStatement one, PreparedStatement many, int columns) {
            this.one = one;
            this.many = many;
            this.columns = columns;
            this.row = new Object[columns];
            this.buffered = new Object[columns * ROWS_PER_STATEMENT];
        }

        /** Starts a row: sets its id (column 1) and returns it; the caller sets the rest, then {@link #add}. */
        long begin() {
            long id = nextId++;
            row[0] = id;
            return id;
        }

        void setLong(int column, long value) {
            row[column - 1] = value;
        }

        void setInt(int column, int value) {
            row[column - 1] = value;
        }

        void setDouble(int column, double value) {
            row[column - 1] = value;
        }

        void setString(int column, String value) {
            row[column - 1] = value;
        }

        void setNullableLong(int column, long value, boolean present) {
            row[column - 1] = present ? value : null;
        }

        void add() throws SQLException {
            System.arraycopy(row, 0, buffered, bufferedRows * columns, columns);
            pending++;
            if (++bufferedRows == ROWS_PER_STATEMENT) {
                for (int i = 0; i < buffered.length; i++) {
                    many.setObject(i + 1, buffered[i]);
                }
                many.addBatch();
                bufferedRows = 0;
            }
        }

        /** Runs the batched statements, then the rows still buffered. */
        private void flush() throws SQLException {
            many.executeBatch();
            for (int r = 0; r < bufferedRows; r++) {
                for (int c = 0; c < columns; c++) {
                    one.setObject(c + 1, buffered[r * columns + c]);
                }
                one.addBatch();
            }
            bufferedRows = 0;
            one.executeBatch();
        }

        private void close() throws SQLException {
            one.close();
            many.close();
        }
    }

    private final Connection connection;
    private final RocpdSchema schema;
    private final Map<String, Insert> inserts = new LinkedHashMap<>();
    private final List<PreparedStatement> updates = new ArrayList<>();
    private final Map<PreparedStatement, Integer> pendingUpdates = new LinkedHashMap<>();
    private long rows;

    private RocpdDatabase(Connection connection, RocpdSchema schema) {
        this.connection = connection;
        this.schema = schema;
    }

    /** Creates {@code file} (replacing an older one) with the schema, committed. */
    static RocpdDatabase create(Path file, RocpdSchema schema) throws IOException {
        for (String suffix : List.of("", "-wal", "-shm", "-journal")) {
            Files.deleteIfExists(file.resolveSibling(file.getFileName() + suffix));
        }
        try {
            Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA synchronous=NORMAL");
                s.execute("PRAGMA foreign_keys=ON");
                s.execute("PRAGMA cache_size=-16384");
            }
            c.setAutoCommit(false);
            schema.create(c);
            c.commit();
            return new RocpdDatabase(c, schema);
        } catch (SQLException e) {
            throw new IOException("cannot create the rocpd database " + file + ": " + e.getMessage(), e);
        }
    }

    /** The insert of {@code table} with the given columns after {@code id}. */
    Insert insert(String table, String... columns) throws SQLException {
        Insert existing = inserts.get(table);
        if (existing != null) {
            return existing;
        }
        StringBuilder sql =
                new StringBuilder("INSERT INTO \"").append(schema.table(table)).append("\" (\"id\"");
        StringBuilder values = new StringBuilder("(?");
        for (String c : columns) {
            sql.append(", \"").append(c).append('"');
            values.append(", ?");
        }
        values.append(')');
        sql.append(") VALUES ");
        StringBuilder manyRows = new StringBuilder(sql);
        for (int r = 0; r < Insert.ROWS_PER_STATEMENT; r++) {
            manyRows.append(r == 0 ? "" : ", ").append(values);
        }
        Insert insert = new Insert(
                connection.prepareStatement(sql.toString() + values),
                connection.prepareStatement(manyRows.toString()),
                columns.length + 1);
        inserts.put(table, insert);
        return insert;
    }

    /** A batched UPDATE, run after every insert of a commit. */
    PreparedStatement update(String table, String assignments, String where) throws SQLException {
        PreparedStatement s = connection.prepareStatement(
                "UPDATE \"" + schema.table(table) + "\" SET " + assignments + " WHERE " + where);
        updates.add(s);
        return s;
    }

    void addUpdate(PreparedStatement update) throws SQLException {
        update.addBatch();
        pendingUpdates.merge(update, 1, Integer::sum);
    }

    /** Rows waiting for the next commit. */
    long pending() {
        long n = 0;
        for (Insert i : inserts.values()) {
            n += i.pending;
        }
        return n;
    }

    /** Rows committed so far. */
    long rows() {
        return rows;
    }

    /** Flushes every batch, parents before children, then the updates, and commits. */
    void commit() throws SQLException {
        for (String table : RocpdSchema.TABLES) {
            Insert i = inserts.get(table);
            if (i != null && i.pending > 0) {
                i.flush();
                rows += i.pending;
                i.pending = 0;
            }
        }
        for (PreparedStatement u : pendingUpdates.keySet()) {
            u.executeBatch();
        }
        pendingUpdates.clear();
        connection.commit();
    }

    /** Runs a query-free statement in the current transaction (ANALYZE, checkpoints). */
    void execute(String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }

    @Override
    public void close() throws SQLException {
        try {
            commit();
            connection.setAutoCommit(true);
            // folds the WAL into the file, which then stands alone
            execute("PRAGMA wal_checkpoint(TRUNCATE)");
            execute("PRAGMA journal_mode=DELETE");
        } finally {
            for (Insert i : inserts.values()) {
                i.close();
            }
            for (PreparedStatement u : updates) {
                u.close();
            }
            connection.close();
        }
    }
}
