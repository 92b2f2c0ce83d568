package org.raidb.controller.request;

import java.sql.Connection;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.raidb.balancer.NoBackendAvailableException;
import org.raidb.balancer.Request;
import org.raidb.balancer.RequestKind;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.result.BackendValues;
import org.raidb.controller.transaction.BackendLane;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.transaction.Transaction;
import org.raidb.driver.protocol.ColumnInfo;
import org.raidb.driver.protocol.ParameterInfo;
import org.raidb.driver.protocol.StatementDescription;

/**
 * Answers DESCRIBE: one backend that holds the statement's tables prepares it, without running it,
 * and says what its parameters and result columns are (its driver's getParameterMetaData and
 * getMetaData), so that a client's PreparedStatement describes itself as pgjdbc's would.
 *
 * <p>Inside a transaction it uses the transaction's connection when the backend has one, so that
 * tables the transaction created are seen; an error there aborts the transaction, as it does on
 * PostgreSQL.
 */
public final class StatementDescriber {
    private StatementDescriber() {}

    public static StatementDescription describe(BackendArray vdb, SessionState s, String sql) throws SQLException {
        AnalyzedStatement a = vdb.analyzer().analyze(sql);
        Transaction tx = s.currentTransaction();
        DatabaseBackend b = backend(vdb, a, tx);
        BackendLane lane = tx == null ? null : tx.lane(b);
        BackendConnections connections = vdb.requests().connections();
        Connection c;
        if (lane != null) {
            lane.idle().join(); // the transaction's earlier statements on this backend come first
            c = lane.connection();
        } else {
            BackendConnections.awaitLastWrite(b, s);
            c = connections.borrow(b, s);
        }
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            return new StatementDescription(parameters(ps.getParameterMetaData()), columns(ps.getMetaData()));
        } catch (SQLException e) {
            if (lane != null) {
                tx.abort(e);
            }
            throw e;
        } finally {
            if (lane == null) {
                connections.giveBack(c, s);
            }
        }
    }

    private static DatabaseBackend backend(BackendArray vdb, AnalyzedStatement a, Transaction tx) throws SQLException {
        Set<String> tables = new HashSet<>(a.tablesRead());
        tables.addAll(a.tablesWritten());
        Request request = new Request(
                RequestKind.READ,
                tables,
                Set.of(),
                a.touchesEverything(),
                tx == null ? 0 : tx.id(),
                tx == null ? Set.of() : tx.backendNames(),
                tx != null && tx.hasWritten());
        try {
            return vdb.balancer().readBackend(request, vdb.backends());
        } catch (NoBackendAvailableException e) {
            throw Errors.unavailable(vdb, e, null);
        }
    }

    private static List<ParameterInfo> parameters(ParameterMetaData md) throws SQLException {
        int n = md.getParameterCount();
        List<ParameterInfo> out = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            out.add(new ParameterInfo(
                    md.getParameterType(i),
                    md.getParameterTypeName(i),
                    md.getParameterClassName(i),
                    md.getPrecision(i),
                    md.getScale(i),
                    md.isNullable(i),
                    md.isSigned(i),
                    md.getParameterMode(i)));
        }
        return out;
    }

    /** Null when the statement returns no rows: pgjdbc's getMetaData then answers null. */
    private static List<ColumnInfo> columns(ResultSetMetaData md) throws SQLException {
        return md == null ? null : List.of(BackendValues.columns(md));
    }
}
