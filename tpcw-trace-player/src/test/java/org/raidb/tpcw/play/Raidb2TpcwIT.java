package org.raidb.tpcw.play;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.controller.Controller;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.analysis.SqlAnalyzer;
import org.raidb.controller.analysis.StatementKind;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.config.ConfigLoader;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.PostgresClusterExtension;
import org.raidb.tpcw.bench.TpcwPlacement;
import org.raidb.tpcw.interactions.BestSellersVariant;
import org.raidb.tpcw.interactions.Mix;
import org.raidb.tpcw.schema.TpcwSchema;
import org.raidb.tpcw.support.TpcwTestDatabases;
import org.raidb.tpcw.trace.Recorder;
import org.raidb.tpcw.trace.Trace;
import org.raidb.tpcw.trace.TraceEvent;
import org.raidb.tpcw.trace.TraceReader;

/**
 * RAIDb-2 with the paper's Table 2 placement for 4 backends (order tables left off the first two): a
 * shopping trace recorded on plain PostgreSQL (pg1, the reference) replays through the controller
 * over pg2 to pg5 without an error, every backend ends with exactly its tables, each identical to the
 * reference (so every write reached every holder of its tables, and only them: the others lack the
 * tables). Then a write that fails on one holder disables that table there only.
 *
 * <p>Lives here rather than in the controller module: this module has the TPC-W schema, recorder and
 * player, and already takes the controller (and its test harness) as a test dependency.
 */
class Raidb2TpcwIT {
    private static final int SESSIONS = 8;
    private static final int BACKENDS = 4;

    @RegisterExtension
    static PostgresClusterExtension pg =
            PostgresClusterExtension.servers(1 + BACKENDS).database("tpcw");

    @TempDir
    Path dir;

    private final PrintWriter progress = new PrintWriter(new StringWriter());

    @Test
    void shoppingTraceReplaysOnTable2PlacementAndAFailingHolderLosesOnlyThatTable() throws Exception {
        List<Set<String>> placement = TpcwPlacement.raidb2(BACKENDS);
        List<EmbeddedPostgresServer> backends = pg.cluster().servers().subList(1, 1 + BACKENDS);
        for (EmbeddedPostgresServer server : pg.cluster().servers()) {
            TpcwTestDatabases.populate(server, TpcwTestDatabases.SMALL, TpcwTestDatabases.SEED);
        }
        for (int i = 0; i < BACKENDS; i++) {
            dropTablesNotIn(backends.get(i), placement.get(i));
        }

        Path traceFile = dir.resolve("shopping.trace");
        Recorder.Summary recorded = new Recorder(
                        TpcwTestDatabases.plain(pg.server(0)),
                        new Recorder.Settings(
                                Mix.SHOPPING,
                                SESSIONS,
                                Duration.ofMinutes(5),
                                40,
                                Duration.ZERO,
                                7,
                                BestSellersVariant.TEMP_TABLE))
                .record(traceFile, progress);
        assertThat(recorded.errors()).isEmpty();
        Trace trace = TraceReader.read(traceFile);

        try (Controller controller = startRaidb2(backends, placement)) {
            ConnectionFactory raidb =
                    new ConnectionFactory("jdbc:raidb://127.0.0.1:" + controller.port() + "/tpcw", "app", "apppw");
            PlayResult played =
                    new TracePlayer(raidb, Pace.MAX, TpcwTestDatabases.UNTIL_COMMITTED).play(trace, SESSIONS, progress);
            assertThat(played.errorsBySqlState())
                    .as("statements that failed through RAIDb-2")
                    .isEmpty();
            assertThat(played.statements()).isEqualTo(trace.statements());

            Map<String, String> reference = TpcwTestDatabases.checksums(pg.server(0));
            assertThat(reference.get("shopping_cart")).as("the recording wrote").doesNotStartWith("0:");
            for (int i = 0; i < BACKENDS; i++) {
                EmbeddedPostgresServer b = backends.get(i);
                assertThat(PostgresClusterExtension.publicTables(b))
                        .as("tables of %s", b.name())
                        .isEqualTo(new TreeSet<>(placement.get(i)));
                Map<String, String> sums = checksumsOf(b);
                for (String table : placement.get(i)) {
                    assertThat(sums.get(table)).as("%s on %s", table, b.name()).isEqualTo(reference.get(table));
                }
                assertThat(controller
                                .virtualDatabase("tpcw")
                                .backend(b.name())
                                .tables()
                                .served())
                        .as("what the controller knows %s holds", b.name())
                        .isEqualTo(new TreeSet<>(placement.get(i)));
            }

            eachWriteReachedExactlyTheHoldersOfItsTable(
                    controller, trace, backends, placement, played.retries(), played.retriedStatements());
            aWriteFailingOnOneHolderDisablesOnlyThatTable(controller, raidb, backends.get(3));
        }
    }

    /**
     * Counted per backend: every INSERT, UPDATE or DELETE of the trace on a TPC-W table reached each
     * backend holding that table once, and no backend that does not hold it.
     */
    private static void eachWriteReachedExactlyTheHoldersOfItsTable(
            Controller controller,
            Trace trace,
            List<EmbeddedPostgresServer> backends,
            List<Set<String>> placement,
            long retries,
            long retriedStatements)
            throws SQLException {
        Set<String> tpcwTables = new TreeSet<>();
        placement.forEach(tpcwTables::addAll);
        SqlAnalyzer analyzer = new SqlAnalyzer();
        Map<String, Long> writesPerTable = new TreeMap<>();
        for (List<TraceEvent> session : trace.sessions().values()) {
            for (TraceEvent e : session) {
                if (e.kind() != TraceEvent.Kind.STATEMENT) {
                    continue;
                }
                AnalyzedStatement a = analyzer.analyze(e.text());
                if (a.kind() == StatementKind.WRITE) {
                    a.tablesWritten().stream()
                            .filter(tpcwTables::contains)
                            .forEach(t -> writesPerTable.merge(t, 1L, Long::sum));
                }
            }
        }
        assertThat(writesPerTable).as("the trace writes TPC-W tables").isNotEmpty();
        for (int i = 0; i < backends.size(); i++) {
            Map<String, Long> applied = controller
                    .virtualDatabase("tpcw")
                    .backend(backends.get(i).name())
                    .writesByTable();
            for (String table : tpcwTables) {
                long expected = placement.get(i).contains(table) ? writesPerTable.getOrDefault(table, 0L) : 0L;
                long actual = applied.getOrDefault(table, 0L);
                String what =
                        "writes to " + table + " applied by " + backends.get(i).name();
                if (expected == 0 || retries == 0) {
                    assertThat(actual).as(what).isEqualTo(expected);
                } else {
                    // A deadlock victim's statements were applied, then rolled back, and run again by the player's
                    // retry: a holder counts them twice (a non-holder still none, above).
                    assertThat(actual)
                            .as("%s (%d transactions retried, %d statements re-sent)", what, retries, retriedStatements)
                            .isBetween(expected, expected + retriedStatements);
                }
            }
        }
    }

    /** pg5 (every table) gets a CHECK on item the others lack: an item update fails there only. */
    private static void aWriteFailingOnOneHolderDisablesOnlyThatTable(
            Controller controller, ConnectionFactory raidb, EmbeddedPostgresServer victim) throws SQLException {
        try (Connection c = victim.connect();
                Statement st = c.createStatement()) {
            st.execute("ALTER TABLE item ADD CONSTRAINT no_restock CHECK (i_stock < 0) NOT VALID");
        }
        try (Connection c = raidb.open();
                Statement st = c.createStatement()) {
            assertThat(st.executeUpdate("UPDATE item SET i_stock = i_stock + 1 WHERE i_id = 1"))
                    .isEqualTo(1);
        }
        DatabaseBackend backend = controller.virtualDatabase("tpcw").backend(victim.name());
        assertThat(backend.isEnabled()).isTrue();
        assertThat(backend.tables().disabled()).containsExactly("item");
        assertThat(backend.tables().served()).contains("customer", "orders").doesNotContain("item");
        try (Connection c = raidb.open();
                Statement st = c.createStatement()) {
            assertThat(st.executeUpdate("UPDATE customer SET c_discount = 0.5 WHERE c_id = 1"))
                    .isEqualTo(1);
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM item")) {
                assertThat(rs.next()).as("item is read from its other holders").isTrue();
            }
        }
        try (Connection c = victim.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT c_discount FROM customer WHERE c_id = 1")) {
            rs.next();
            assertThat(rs.getBigDecimal(1))
                    .as("the backend still receives writes to its other tables")
                    .isEqualByComparingTo("0.5");
        }
    }

    private Controller startRaidb2(List<EmbeddedPostgresServer> backends, List<Set<String>> placement)
            throws Exception {
        ControllerConfigXml config = pg.controllerConfig("tpcw")
                .backends(backends)
                // The default scheduler; the player retries its deadlock victims (see docs/tpcw.md).
                // Best Sellers' temporary table goes to 2 of the backends holding orders, as in the paper.
                .replication("""
            <raidb2 readPolicy="leastPending" completion="all">
              <createTable policy="roundRobin" nodes="2" tables="best_sellers_*"/>
            </raidb2>""")
                .dataDir(Files.createDirectories(dir.resolve("controller-data")));
        for (int i = 0; i < backends.size(); i++) {
            config.tables(backends.get(i).name(), new TreeSet<>(placement.get(i)));
        }
        return Controller.start(ConfigLoader.load(config.writeTo(dir.resolve("raidb.xml"))));
    }

    /** Drops the TPC-W tables the backend does not hold, children first. */
    private static void dropTablesNotIn(EmbeddedPostgresServer server, Set<String> held) throws SQLException {
        List<String> drop = new ArrayList<>();
        for (String table : TpcwSchema.TABLES) {
            if (!held.contains(table)) {
                drop.add(table);
            }
        }
        try (Connection c = server.connect();
                Statement st = c.createStatement()) {
            for (String table : drop) {
                st.execute("DROP TABLE " + table);
            }
        }
    }

    private static Map<String, String> checksumsOf(EmbeddedPostgresServer server) throws SQLException {
        return TpcwTestDatabases.checksums(server);
    }
}
