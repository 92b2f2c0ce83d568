package org.raidb.controller.pgwire;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.raidb.controller.request.StatementDescriber;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.driver.protocol.ColumnInfo;
import org.raidb.driver.protocol.ParameterInfo;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.driver.protocol.StatementDescription;

/**
 * The extended query protocol: Parse, Bind, Describe, Execute, Close, and Sync. Statements and portals are kept
 * by name (the empty name is the unnamed one, replaced by the next of its kind). A portal runs through the
 * session's request path on its first Describe or Execute, so that Describe can say what columns the rows have.
 * After an error every message up to the next Sync is skipped, as PostgreSQL does. Portals run outside a
 * transaction block between two Syncs share one implicit transaction, committed at the Sync.
 */
final class PgExtendedQuery {
    /** Commands that return no rows and take no parameters' types from the backend: described without one. */
    private static final Set<String> NO_ROWS = Set.of(
            "BEGIN",
            "START",
            "COMMIT",
            "END",
            "ROLLBACK",
            "ABORT",
            "SAVEPOINT",
            "RELEASE",
            "SET",
            "RESET",
            "CREATE",
            "DROP",
            "ALTER",
            "TRUNCATE",
            "GRANT",
            "REVOKE",
            "COMMENT",
            "DISCARD",
            "LOCK",
            "ANALYZE",
            "VACUUM");

    private final PgSession session;
    private final VirtualDatabase vdb;
    private final PgMessageWriter out;
    private final Map<String, PgPrepared> statements = new HashMap<>();
    private final Map<String, PgPortal> portals = new HashMap<>();
    private boolean skipping;
    /** An implicit transaction is open: it ends at the next Sync. */
    private boolean implicitOpen;

    PgExtendedQuery(PgSession session, VirtualDatabase vdb, PgMessageWriter out) {
        this.session = session;
        this.vdb = vdb;
        this.out = out;
    }

    /** An error happened since the last Sync: messages are discarded until the next one. */
    boolean skipping() {
        return skipping;
    }

    void handle(PgMessage m) throws IOException {
        if (skipping) {
            return;
        }
        try {
            switch (m.type()) {
                case 'P' -> parse(m);
                case 'B' -> bind(m);
                case 'D' -> describe(m);
                case 'E' -> execute(m);
                case 'C' -> close(m);
                default -> throw new IllegalStateException("not an extended query message: " + m.describeType());
            }
        } catch (SQLException e) {
            session.error(e);
            skipping = true;
        }
    }

    /** Parse, Bind, Describe, Execute, Close: the messages of an extended query but its Sync and Flush. */
    static boolean isExtended(byte type) {
        return type == 'P' || type == 'B' || type == 'D' || type == 'E' || type == 'C';
    }

    /**
     * Sync: the end of an extended query's messages; its implicit transaction, if any, commits (or rolls back
     * after an error). Outside a transaction block its portals end with it.
     */
    void sync() {
        if (implicitOpen) {
            implicitOpen = false;
            session.endImplicit(skipping);
        }
        skipping = false;
        if (!session.state().inTransactionMode()) {
            portals.values().forEach(PgPortal::close);
            portals.clear();
        }
    }

    private void parse(PgMessage m) throws IOException, SQLException {
        String name = m.readCString();
        String sql = m.readCString();
        int n = m.readCount(4);
        int[] declared = new int[n];
        for (int i = 0; i < n; i++) {
            declared[i] = m.readInt();
        }
        if (PgCopyStatement.isCopy(sql)) {
            throw new SQLException(
                    "COPY through the extended query protocol is not supported by RAIDb: send it as a simple query"
                            + " (psql's \\copy and pgjdbc's CopyManager do)",
                    "0A000");
        }
        List<String> parts = PgSqlText.split(sql);
        if (parts.size() > 1) {
            throw new SQLException("cannot insert multiple commands into a prepared statement", SqlStates.SYNTAX_ERROR);
        }
        if (!name.isEmpty() && statements.containsKey(name)) {
            throw new SQLException("prepared statement \"" + name + "\" already exists: close it first", "42P05");
        }
        PgSqlText text = PgSqlText.of(sql);
        int[] oids = Arrays.copyOf(declared, Math.max(n, text.parameterCount()));
        statements.put(name, new PgPrepared(name, sql, text, oids, parts.isEmpty()));
        out.parseComplete();
    }

    private void bind(PgMessage m) throws IOException, SQLException {
        String portalName = m.readCString();
        String statementName = m.readCString();
        int[] formats = shorts(m);
        int n = m.readCount(4);
        byte[][] values = new byte[n][];
        for (int i = 0; i < n; i++) {
            int length = m.readInt();
            values[i] = length < 0 ? null : m.readBytes(length);
        }
        int[] resultFormats = shorts(m);
        PgPrepared statement = statement(statementName);
        if (n != statement.parameterCount()) {
            throw new SQLException(
                    "bind message supplies " + n + " parameters, but " + statement.describeName() + " requires "
                            + statement.parameterCount(),
                    SqlStates.PROTOCOL_VIOLATION);
        }
        if (!portalName.isEmpty() && portals.containsKey(portalName)) {
            throw new SQLException("portal \"" + portalName + "\" already exists: close it first", "42P03");
        }
        List<Object> decoded = PgParameters.decode(statement.oids(), formats, values);
        List<Object> parameters = null;
        if (statement.text().markers().length > 0) {
            parameters = new ArrayList<>(statement.text().markers().length);
            for (int marker : statement.text().markers()) {
                parameters.add(decoded.get(marker - 1));
            }
        }
        PgPortal previous = portals.put(portalName, new PgPortal(statement, parameters, resultFormats));
        if (previous != null) {
            previous.close();
        }
        out.bindComplete();
    }

    private static int[] shorts(PgMessage m) throws PgProtocolException {
        int n = m.readCount(2);
        int[] v = new int[n];
        for (int i = 0; i < n; i++) {
            v[i] = m.readShort();
        }
        return v;
    }

    private void describe(PgMessage m) throws IOException, SQLException {
        byte kind = m.readByte();
        String name = m.readCString();
        if (kind == 'S') {
            describeStatement(statement(name));
        } else if (kind == 'P') {
            PgPortal portal = portal(name);
            run(portal, false);
            PgRows rows = portal.rows();
            if (rows == null) {
                out.noData();
            } else {
                out.rowDescription(rows.fields(portal.resultFormats()));
            }
        } else {
            throw new PgProtocolException("invalid Describe kind '" + (char) kind + "'");
        }
    }

    /** ParameterDescription, then RowDescription or NoData, as a backend prepares the statement without running it. */
    private void describeStatement(PgPrepared statement) throws SQLException {
        int[] oids = statement.oids().clone();
        String command = PgCommandTag.command(statement.sql());
        boolean known = Arrays.stream(oids).allMatch(oid -> oid != 0);
        if (statement.empty() || (known && NO_ROWS.contains(command))) {
            out.parameterDescription(oids);
            out.noData();
            return;
        }
        StatementDescription d = StatementDescriber.describe(
                vdb, session.state(), statement.text().sql());
        int[] markers = statement.text().markers();
        for (int i = 0; i < markers.length && i < d.parameters().size(); i++) {
            int n = markers[i] - 1;
            if (oids[n] == 0) {
                ParameterInfo p = d.parameters().get(i);
                oids[n] = PgType.of(p.typeName(), p.jdbcType()).oid();
            }
        }
        for (int i = 0; i < oids.length; i++) {
            if (oids[i] == 0) {
                oids[i] = PgType.TEXT.oid(); // a $n no marker uses: PostgreSQL would say unknown; text reads the same
            }
        }
        out.parameterDescription(oids);
        if (d.columns() == null) {
            out.noData();
        } else {
            List<PgField> fields = new ArrayList<>(d.columns().size());
            for (ColumnInfo c : d.columns()) {
                fields.add(PgField.of(c, 0));
            }
            out.rowDescription(fields);
        }
    }

    private void execute(PgMessage m) throws IOException, SQLException {
        String name = m.readCString();
        int maxRows = m.readInt();
        PgPortal portal = portal(name);
        if (portal.statement().empty()) {
            out.emptyQueryResponse();
            return;
        }
        run(portal, true);
        String sql = portal.statement().sql();
        PgRows rows = portal.rows();
        if (rows == null) {
            if (!portal.completed()) {
                session.notices(portal.warnings());
            }
            portal.complete();
            out.commandComplete(session.tag(sql, portal.count(), false));
            return;
        }
        boolean more;
        try {
            more = session.sendRows(rows, portal.resultFormats(), maxRows);
        } catch (SQLException | RuntimeException e) {
            portal.close();
            throw e;
        }
        if (more) {
            out.portalSuspended();
        } else {
            portal.complete();
            out.commandComplete(session.tag(sql, rows.sent(), true));
        }
    }

    /**
     * Runs a portal's statement once, on its first Describe or Execute ({@code executing}). Outside a
     * transaction block, when more portals run before the Sync, the first opens an implicit transaction that
     * the Sync ends, as PostgreSQL does: a batch of writes is applied whole or not at all.
     */
    private void run(PgPortal portal, boolean executing) throws SQLException, IOException {
        if (portal.ran() || portal.statement().empty()) {
            return;
        }
        PgPrepared s = portal.statement();
        if (!implicitOpen
                && session.outsideTransactionBlock()
                && PgSession.mayRunInImplicitTransaction(s.sql())
                && session.severalPortalsBeforeSync(executing)) {
            session.beginImplicit();
            implicitOpen = true;
        }
        String sql = portal.parameters() == null ? s.sql() : s.text().sql();
        portal.ran(session.run(sql, portal.parameters(), s.sql()));
    }

    private void close(PgMessage m) throws IOException, SQLException {
        byte kind = m.readByte();
        String name = m.readCString();
        if (kind == 'S') {
            statements.remove(name);
        } else if (kind == 'P') {
            PgPortal p = portals.remove(name);
            if (p != null) {
                p.close();
            }
        } else {
            throw new PgProtocolException("invalid Close kind '" + (char) kind + "'");
        }
        out.closeComplete();
    }

    private PgPrepared statement(String name) throws SQLException {
        PgPrepared s = statements.get(name);
        if (s == null) {
            throw new SQLException(
                    name.isEmpty()
                            ? "unnamed prepared statement does not exist"
                            : "prepared statement \"" + name + "\" does not exist",
                    "26000");
        }
        return s;
    }

    private PgPortal portal(String name) throws SQLException {
        PgPortal p = portals.get(name);
        if (p == null) {
            throw new SQLException(
                    name.isEmpty() ? "unnamed portal does not exist" : "portal \"" + name + "\" does not exist",
                    "34000");
        }
        return p;
    }

    /**
     * {@code DEALLOCATE name} (null: {@code ALL}) in SQL ends a statement prepared through the protocol, as on
     * PostgreSQL (psycopg 3 and pgx trim their statement caches so).
     */
    void deallocate(String name) throws SQLException {
        if (name == null) {
            statements.clear();
        } else if (statements.remove(name) == null) {
            throw new SQLException("prepared statement \"" + name + "\" does not exist", "26000");
        }
    }

    /** The session ends: every portal's rows are released. */
    void closeAll() {
        portals.values().forEach(PgPortal::close);
        portals.clear();
    }
}
