package org.raidb.controller.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.embedded.EmbeddedPostgresServer;

/** What tests look at on the backends themselves, past the controller. */
public final class ReplicaChecks {
    /** Opens a direct connection to one backend (pgjdbc, MariaDB Connector/J). */
    @FunctionalInterface
    public interface Backend {
        Connection connect() throws SQLException;
    }

    private ReplicaChecks() {}

    /** The rows of a query on one server, straight through pgjdbc, each row as "v1|v2|". */
    public static List<String> rowsOn(EmbeddedPostgresServer s, String query) throws SQLException {
        return rowsOn(s::connect, query);
    }

    /** The rows of a query on one backend, straight through its own driver, each row as "v1|v2|". */
    public static List<String> rowsOn(Backend backend, String query) throws SQLException {
        try (Connection c = backend.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(query)) {
            return rows(rs);
        }
    }

    /** The query gives the same, non-empty rows on every backend; returns them. */
    public static List<String> assertSameOnEvery(List<? extends Backend> backends, String query) throws SQLException {
        List<String> first = rowsOn(backends.get(0), query);
        assertThat(first).as(query).isNotEmpty();
        for (int i = 1; i < backends.size(); i++) {
            assertThat(rowsOn(backends.get(i), query))
                    .as("%s on backend %d", query, i + 1)
                    .isEqualTo(first);
        }
        return first;
    }

    /** The first column of a query's one row, as an int: a count, through any connection. */
    public static int count(Connection c, String query) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(query)) {
            rs.next();
            return rs.getInt(1);
        }
    }

    public static List<String> rows(ResultSet rs) throws SQLException {
        List<String> rows = new ArrayList<>();
        int n = rs.getMetaData().getColumnCount();
        while (rs.next()) {
            StringBuilder row = new StringBuilder();
            for (int i = 1; i <= n; i++) {
                row.append(rs.getString(i)).append('|');
            }
            rows.add(row.toString());
        }
        return rows;
    }

    /** The query gives exactly these rows on every server. */
    public static void assertRowsOnEach(List<EmbeddedPostgresServer> servers, String query, String... rows)
            throws SQLException {
        for (EmbeddedPostgresServer s : servers) {
            assertThat(rowsOn(s, query)).as("%s on %s", query, s.name()).containsExactly(rows);
        }
    }

    /** Every table has the same checksum on every server (and there is at least one table). */
    public static void assertIdentical(List<EmbeddedPostgresServer> servers) throws SQLException {
        Map<String, Map<String, String>> sums = ControllerFixture.checksums(servers);
        Map<String, String> first = sums.values().iterator().next();
        assertThat(first).isNotEmpty();
        assertThat(sums)
                .allSatisfy(
                        (server, s) -> assertThat(s).as("tables of %s", server).isEqualTo(first));
    }

    /**
     * Every result of one execution, in order, as JDBC's execute/getMoreResults walk hands them out:
     * "rows [..]" for a result set, "count n" for an update count.
     */
    public static List<String> results(Statement st, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        boolean isResultSet = st.execute(sql);
        while (true) {
            if (isResultSet) {
                try (ResultSet rs = st.getResultSet()) {
                    out.add("rows " + rows(rs));
                }
            } else {
                int count = st.getUpdateCount();
                if (count == -1) {
                    return out;
                }
                out.add("count " + count);
            }
            isResultSet = st.getMoreResults();
        }
    }

    /** Requests the controller's backends have served so far, summed: a read adds one, a write one per backend. */
    public static long served(ControllerFixture raidb, String vdb) {
        return raidb.controller().virtualDatabase(vdb).backends().stream()
                .mapToLong(DatabaseBackend::requestsServed)
                .sum();
    }
}
