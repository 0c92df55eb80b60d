package org.rocprofsys.core.rocpd;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;

/**
 * The thread that owns a rocpd database's connection and runs its statements, in the order they
 * were given: chunks of rows as multi-row INSERTs, updates, commits. SQLite's work (binding,
 * records, pages) is most of a row's cost, so giving it a thread of its own lets the event mapping
 * run beside it. The queue is bounded: when SQLite falls behind, the caller waits, so memory stays
 * bounded by {@link #QUEUE} chunks. A failure stops the writer and is rethrown to the caller from
 * its next call.
 */
final class SqliteWriter {
    /** Chunks in flight (a chunk is 256 rows): a few MB at most. */
    private static final int QUEUE = 32;

    record UpdateRow(String sql, Object[] values) {}

    private sealed interface Task {}

    private record Rows(RocpdDatabase.Insert insert, Object[] values, int rows) implements Task {}

    private record Updates(List<UpdateRow> rows) implements Task {}

    private record Commit() implements Task {}

    /** Reached once every task given before it has run. */
    private record Reached(CountDownLatch latch) implements Task {}

    /** The last task: commit, fold the journal away when {@code clean}, close. */
    private record Close(boolean clean) implements Task {}

    private final Connection connection;
    private final BlockingQueue<Task> queue = new ArrayBlockingQueue<>(QUEUE);
    private final Thread thread;
    /** Per insert and row count, its INSERT of that many rows (prepared when first needed). */
    private final Map<RocpdDatabase.Insert, Map<Integer, PreparedStatement>> inserts = new HashMap<>();

    private final Map<String, PreparedStatement> updates = new HashMap<>();
    private volatile SQLException failure;
    private boolean closed;

    SqliteWriter(Connection connection, String name) {
        this.connection = connection;
        this.thread = Thread.ofPlatform()
                .name("rocprof-sys-rocpd-" + name)
                .daemon(true)
                .unstarted(this::run);
        thread.start();
    }

    void insert(RocpdDatabase.Insert insert, Object[] values, int rows) throws SQLException {
        put(new Rows(insert, values, rows));
    }

    void updates(List<UpdateRow> rows) throws SQLException {
        put(new Updates(rows));
    }

    void commit() throws SQLException {
        put(new Commit());
    }

    /** Waits until every statement given so far has run (committed or not). */
    void await() throws SQLException {
        CountDownLatch latch = new CountDownLatch(1);
        put(new Reached(latch));
        uninterrupted(latch::await, "waiting for the rocpd writer");
        throwFailure();
    }

    /** Commits what was given, closes the connection and waits for the thread. */
    void close(boolean clean) throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        uninterrupted(
                () -> {
                    queue.put(new Close(clean));
                    thread.join();
                },
                "closing the rocpd database");
        throwFailure();
    }

    /** Something that waits for the writer thread. */
    private interface Waiting {
        void run() throws InterruptedException;
    }

    /** Runs {@code waiting}; an interrupt (kept set) becomes an error saying what was waited for. */
    private static void uninterrupted(Waiting waiting, String what) throws SQLException {
        try {
            waiting.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while " + what, e);
        }
    }

    /** Throws the writer thread's failure, if it had one. */
    private void throwFailure() throws SQLException {
        SQLException f = failure;
        if (f != null) {
            throw f;
        }
    }

    private void put(Task task) throws SQLException {
        throwFailure();
        if (closed) {
            throw new SQLException("the rocpd database is closed");
        }
        try {
            queue.put(task);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while writing the rocpd database", e);
        }
    }

    private void run() {
        while (true) {
            Task task;
            try {
                task = queue.take();
            } catch (InterruptedException e) {
                // only close() ends this thread; it always sends a Close
                continue;
            }
            if (task instanceof Reached r) {
                r.latch().countDown();
                continue;
            }
            if (failure != null && !(task instanceof Close)) {
                continue;
            }
            try {
                switch (task) {
                    case Rows r -> insertRows(r);
                    case Updates u -> runUpdates(u.rows());
                    case Commit c -> connection.commit();
                    case Reached r -> r.latch().countDown();
                    case Close c -> {
                        finish(c.clean() && failure == null);
                        return;
                    }
                }
            } catch (SQLException e) {
                failure = e;
            } catch (RuntimeException e) {
                failure = new SQLException(e.toString(), e);
            }
        }
    }

    /** The chunk's rows: one statement of 256, or a statement per set bit of a smaller count. */
    private void insertRows(Rows r) throws SQLException {
        Map<Integer, PreparedStatement> bySize = inserts.computeIfAbsent(r.insert(), k -> new HashMap<>());
        int columns = r.insert().columns;
        int done = 0;
        for (int size = RocpdDatabase.Insert.ROWS_PER_STATEMENT; size > 0; size >>= 1) {
            if (r.rows() - done < size) {
                continue;
            }
            PreparedStatement s = bySize.get(size);
            if (s == null) {
                s = connection.prepareStatement(sql(r.insert(), size));
                bySize.put(size, s);
            }
            Object[] values = r.values();
            boolean[] bound = r.insert().bound;
            int parameter = 1;
            for (int row = done; row < done + size; row++) {
                int base = row * columns;
                for (int c = 0; c < columns; c++) {
                    if (bound[c]) {
                        s.setObject(parameter++, values[base + c]);
                    }
                }
            }
            s.executeUpdate();
            done += size;
        }
    }

    private static String sql(RocpdDatabase.Insert insert, int rows) {
        StringBuilder sql = new StringBuilder(insert.sql.length() + rows * (insert.rowValues.length() + 2));
        sql.append(insert.sql);
        for (int r = 0; r < rows; r++) {
            sql.append(r == 0 ? "" : ", ").append(insert.rowValues);
        }
        return sql.toString();
    }

    private void runUpdates(List<UpdateRow> rows) throws SQLException {
        for (UpdateRow u : rows) {
            PreparedStatement s = updates.get(u.sql());
            if (s == null) {
                s = connection.prepareStatement(u.sql());
                updates.put(u.sql(), s);
            }
            for (int i = 0; i < u.values().length; i++) {
                s.setObject(i + 1, u.values()[i]);
            }
            s.executeUpdate();
        }
    }

    /** The last commit; then the journal is removed and the exclusive lock given up. */
    private void finish(boolean clean) {
        List<AutoCloseable> statements = new ArrayList<>(updates.values());
        inserts.values().forEach(m -> statements.addAll(m.values()));
        try {
            if (clean) {
                connection.commit();
                connection.setAutoCommit(true);
                try (Statement s = connection.createStatement()) {
                    s.execute("PRAGMA journal_mode=DELETE");
                }
            }
        } catch (SQLException e) {
            failure = e;
        } finally {
            for (AutoCloseable s : statements) {
                try {
                    s.close();
                } catch (Exception e) {
                    if (failure == null) {
                        failure = e instanceof SQLException q ? q : new SQLException(e.toString(), e);
                    }
                }
            }
            try {
                connection.close();
            } catch (SQLException e) {
                if (failure == null) {
                    failure = e;
                }
            }
        }
    }
}
