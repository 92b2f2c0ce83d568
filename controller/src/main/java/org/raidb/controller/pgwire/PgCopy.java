package org.raidb.controller.pgwire;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.raidb.controller.request.StatementResult;
import org.raidb.controller.result.Result;
import org.raidb.controller.result.Rows;
import org.raidb.driver.protocol.SqlNull;
import org.raidb.driver.protocol.TypedText;

/**
 * A COPY of the simple query protocol, run through the request path like any statement, so that nothing
 * about ordering, logging or routing is done apart: {@code FROM STDIN} becomes multi-row INSERTs of the
 * copied values (as untyped text, which each backend casts to the column's type as its own COPY would), all
 * in one transaction, so that every backend gets the rows in one order and a COPY that fails, is given up by
 * the client (CopyFail) or cut off by a dropped connection leaves nothing behind on any backend; {@code TO
 * STDOUT} reads the table or query and writes its rows in the COPY format.
 */
final class PgCopy {
    /** Rows per INSERT: few statements for a large COPY, each well under what a backend takes. */
    private static final int ROWS_PER_INSERT = 1_000;
    /** pgjdbc binds at most this many parameters to one statement. */
    private static final int MAX_PARAMETERS = 32_767;

    private final PgSession session;
    private final PgMessageReader in;
    private final PgMessageWriter out;

    PgCopy(PgSession session, PgMessageReader in, PgMessageWriter out) {
        this.session = session;
        this.in = in;
        this.out = out;
    }

    /** Runs the COPY and sends its CommandComplete; an error is thrown for the caller to answer. */
    void run(String sql) throws IOException, SQLException {
        PgCopyStatement copy = PgCopyStatement.parse(sql);
        if (copy.in()) {
            copyIn(copy);
        } else {
            copyOut(copy);
        }
    }

    // ---- FROM STDIN

    private void copyIn(PgCopyStatement copy) throws IOException, SQLException {
        // The table and columns as the backends know them, before the client sends a row: a wrong name fails
        // here, as it does on PostgreSQL before CopyInResponse.
        List<String> columns = columnsOf(copy);
        boolean own = !session.state().inTransactionMode();
        if (own) {
            session.run("BEGIN", null, "BEGIN");
        }
        try {
            out.copyResponse('G', columns.size());
            out.flush();
            long copied = receive(copy, columns);
            if (own) {
                session.run("COMMIT", null, "COMMIT");
            }
            out.commandComplete("COPY " + copied);
        } catch (SQLException | RuntimeException e) {
            if (own) {
                session.rollbackFailedCopy();
            } else {
                session.failed();
            }
            throw e;
        }
    }

    /** CopyData until CopyDone; returns the rows inserted. */
    private long receive(PgCopyStatement copy, List<String> columns) throws IOException, SQLException {
        PgCopyDecoder decoder = new PgCopyDecoder(copy.format(), columns);
        int perInsert = Math.max(1, Math.min(ROWS_PER_INSERT, MAX_PARAMETERS / columns.size()));
        List<List<String>> batch = new ArrayList<>();
        long copied = 0;
        while (true) {
            PgMessage m = in.next();
            switch (m.type()) {
                case 'd' -> batch.addAll(decoder.feed(m.readBytes(m.remaining())));
                case 'c' -> {
                    batch.addAll(decoder.finish());
                    return copied + insert(copy, batch, batch.size());
                }
                case 'f' -> throw new SQLException("COPY from stdin failed: " + m.readCString(), "57014");
                case 'H', 'S' -> {
                    // Flush and Sync mean nothing in copy-in mode: PostgreSQL ignores them too
                }
                default ->
                    throw new SQLException(
                            "unexpected message '" + m.describeType() + "' during COPY from stdin: send CopyData, then"
                                    + " CopyDone or CopyFail",
                            "08P01");
            }
            while (batch.size() >= perInsert) {
                copied += insert(copy, batch, perInsert);
            }
        }
    }

    /** Inserts the first {@code rows} rows of {@code batch} in one statement and removes them from it. */
    private long insert(PgCopyStatement copy, List<List<String>> batch, int rows) throws SQLException {
        if (rows == 0) {
            return 0;
        }
        List<List<String>> these = batch.subList(0, rows);
        int width = these.get(0).size();
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(copy.table());
        if (!copy.columns().isEmpty()) {
            sql.append(" (").append(String.join(", ", copy.columns())).append(')');
        }
        sql.append(" VALUES ");
        List<Object> parameters = new ArrayList<>(rows * width);
        for (int r = 0; r < these.size(); r++) {
            sql.append(r == 0 ? "(" : ", (");
            List<String> row = these.get(r);
            for (int c = 0; c < width; c++) {
                sql.append(c == 0 ? "?" : ", ?");
                String v = row.get(c);
                parameters.add(v == null ? SqlNull.of(Types.NULL) : new TypedText("unknown", v));
            }
            sql.append(')');
        }
        String text = sql.toString();
        StatementResult result = session.run(text, parameters, text);
        result.discard();
        these.clear();
        return rows;
    }

    /** The names of the columns copied into, read from the backends (which also says the table exists). */
    private List<String> columnsOf(PgCopyStatement copy) throws SQLException {
        String list = copy.columns().isEmpty() ? "*" : String.join(", ", copy.columns());
        String probe = "SELECT " + list + " FROM " + copy.table() + " WHERE false";
        StatementResult r = session.run(probe, null, probe);
        try {
            for (Result item : r.results()) {
                if (item instanceof Rows set) {
                    try (PgRows rows = new PgRows(set.source())) {
                        List<String> names = new ArrayList<>();
                        rows.fields(new int[0]).forEach(f -> names.add(f.name()));
                        return names;
                    }
                }
            }
        } finally {
            r.discard();
        }
        throw new SQLException("COPY could not read the columns of " + copy.table(), "42P01");
    }

    // ---- TO STDOUT

    private void copyOut(PgCopyStatement copy) throws IOException, SQLException {
        String select = copy.query() != null
                ? copy.query()
                : "SELECT " + (copy.columns().isEmpty() ? "*" : String.join(", ", copy.columns())) + " FROM "
                        + copy.table();
        StatementResult r = session.run(select, null, select);
        try {
            for (Result item : r.results()) {
                if (item instanceof Rows set) {
                    send(copy.format(), set);
                    return;
                }
            }
            throw new SQLException("COPY query must have a RETURNING clause or return rows", "0A000");
        } catch (SQLException | RuntimeException e) {
            session.failed();
            throw e;
        } finally {
            r.discard();
        }
    }

    private void send(PgCopyFormat format, Rows set) throws IOException, SQLException {
        try (PgRows rows = new PgRows(set.source())) {
            List<PgField> fields = rows.fields(new int[0]);
            out.copyResponse('H', fields.size());
            if (format.header()) {
                List<String> names = new ArrayList<>();
                fields.forEach(f -> names.add(f.name()));
                out.copyData(format.line(names).getBytes(StandardCharsets.UTF_8));
            }
            long n = 0;
            List<String> values = new ArrayList<>(fields.size());
            while (rows.hasNext()) {
                values.clear();
                for (byte[] v : rows.encode(rows.next(), new int[0], session.timeZone())) {
                    values.add(v == null ? null : new String(v, StandardCharsets.UTF_8));
                }
                out.copyData(format.line(values).getBytes(StandardCharsets.UTF_8));
                out.flushIfFull();
                n++;
            }
            out.copyDone();
            out.commandComplete("COPY " + n);
        }
    }
}
