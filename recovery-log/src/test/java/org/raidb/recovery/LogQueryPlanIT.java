package org.raidb.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Every query the log runs on its entries uses the primary key (a position range or one key) on H2,
 * PostgreSQL and MariaDB: EXPLAIN of each fails the test on a full scan. PostgreSQL plans a sequential
 * scan of a small table even when an index would do, so there the session forbids them
 * ({@code enable_seqscan = off}): a "Seq Scan" left in the plan means no index could answer.
 */
class LogQueryPlanIT {

    @Test
    void everyEntryQueryUsesThePrimaryKeyOnH2() throws Exception {
        RecoveryLogConfig config = TestStores.freshH2("shop");
        // MIN / MAX of the key read one end of the B-tree: H2 names the table but says "direct lookup".
        checkPlans(config, c -> {}, plan -> plan.contains("tableScan") && !plan.contains("direct lookup"));
    }

    @Test
    void everyEntryQueryUsesThePrimaryKeyOnPostgres() throws Exception {
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start()) {
            RecoveryLogConfig config =
                    RecoveryLogConfig.of(postgres.getJdbcUrl("postgres", "postgres"), "postgres", "", "shop");
            checkPlans(
                    config,
                    c -> {
                        try (Statement s = c.createStatement()) {
                            s.execute("ANALYZE");
                            s.execute("SET enable_seqscan = off");
                        }
                    },
                    plan -> plan.contains("Seq Scan"));
        }
    }

    @Test
    void everyEntryQueryUsesThePrimaryKeyOnMariaDb() throws Exception {
        String server = "jdbc:mariadb://127.0.0.1:3306/";
        boolean reachable;
        try (Connection c = DriverManager.getConnection(server, "root", "");
                Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS raidb_log_plans");
            s.execute("CREATE DATABASE raidb_log_plans");
            reachable = true;
        } catch (SQLException e) {
            reachable = false;
        }
        assumeThat(reachable)
                .as("no MariaDB server on 127.0.0.1:3306 (root, empty password)")
                .isTrue();
        try {
            RecoveryLogConfig config = RecoveryLogConfig.of(server + "raidb_log_plans", "root", "", "shop");
            // EXPLAIN's "type" column: ALL is a full scan; "index" reads a whole index.
            checkPlans(config, c -> {}, plan -> plan.matches("(?s).*\\btype=(ALL|index)\\b.*"));
        } finally {
            try (Connection c = DriverManager.getConnection(server, "root", "");
                    Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS raidb_log_plans");
            }
        }
    }

    private interface SessionSetup {
        void apply(Connection c) throws SQLException;
    }

    /** Fills a log with a few thousand entries, then EXPLAINs each query with every parameter bound to a number.
     * Prints the plans. */
    private static void checkPlans(RecoveryLogConfig config, SessionSetup setup, Predicate<String> fullScan)
            throws Exception {
        try (RecoveryLog log = RecoveryLog.open(config)) {
            List<LogEntry> entries = new ArrayList<>();
            for (int i = 0; i < 3000; i++) {
                entries.add(
                        i % 3 == 0
                                ? LogEntry.begin(i + 1, "u")
                                : LogEntry.write(
                                        i - i % 3 + 1, "u", "UPDATE t SET x = " + (i % 50), List.of(i), List.of("t")));
                if (i % 3 == 2) {
                    entries.add(LogEntry.commit(i - 1, "u"));
                }
            }
            log.appendAllAsync(entries).get(entries.size() - 1).await();
            log.checkpoint("cp");
            try (Connection c = DriverManager.getConnection(config.jdbcUrl(), config.user(), config.password())) {
                setup.apply(c);
                List<String> scans = new ArrayList<>();
                for (Map.Entry<String, String> q : log.rows().plannedQueries().entrySet()) {
                    String plan = explain(c, q.getValue());
                    System.out.printf("%s%n  %s%n  -> %s%n", q.getKey(), q.getValue(), plan.replace("\n", "\n     "));
                    if (fullScan.test(plan)) {
                        scans.add(q.getKey() + ": " + plan);
                    }
                }
                assertThat(scans).as("queries planned as a full scan").isEmpty();
            }
        }
    }

    private static String explain(Connection c, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("EXPLAIN " + sql)) {
            ParameterMetaData meta = ps.getParameterMetaData();
            for (int i = 1; i <= meta.getParameterCount(); i++) {
                ps.setLong(i, 100L * i); // ranges [100, 200), (100, 200]: a few rows of the 4,000
            }
            StringBuilder plan = new StringBuilder();
            try (ResultSet rs = ps.executeQuery()) {
                ResultSetMetaData md = rs.getMetaData();
                while (rs.next()) {
                    for (int i = 1; i <= md.getColumnCount(); i++) {
                        if (md.getColumnCount() > 1) {
                            plan.append(md.getColumnLabel(i)).append('=');
                        }
                        plan.append(rs.getString(i)).append(md.getColumnCount() > 1 ? " " : "");
                    }
                    plan.append('\n');
                }
            }
            return plan.toString().trim();
        }
    }
}
