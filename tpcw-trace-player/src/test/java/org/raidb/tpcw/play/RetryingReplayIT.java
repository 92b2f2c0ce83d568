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
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.controller.Controller;
import org.raidb.controller.config.ConfigLoader;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;
import org.raidb.tpcw.interactions.BestSellersVariant;
import org.raidb.tpcw.interactions.Mix;
import org.raidb.tpcw.report.PlayReport;
import org.raidb.tpcw.support.TpcwTestDatabases;
import org.raidb.tpcw.trace.Recorder;
import org.raidb.tpcw.trace.Trace;
import org.raidb.tpcw.trace.TraceEvent;
import org.raidb.tpcw.trace.TraceReader;

/**
 * An ordering trace (half its interactions write) recorded on pg1 with many sessions on a small
 * database, replayed through a RAIDb-1 controller on pg2 + pg3 under the controller's default
 * scheduler: aborted transactions are run again, counted, and the backends end identical to the
 * recorded database. So that at least one retry happens whatever the interleaving, a trigger on both
 * backends aborts the trace's first order with 40001 the first time it is inserted (a sequence
 * counts the attempts: sequences are not rolled back with the transaction).
 */
class RetryingReplayIT {

    private static final int SESSIONS = 16;
    private static final Pattern ORDER_ID = Pattern.compile("^INSERT INTO orders \\(o_id,.*\\) VALUES \\((\\d+),");

    @RegisterExtension
    static PostgresClusterExtension pg = PostgresClusterExtension.servers(3).database("tpcw");

    @TempDir
    Path dir;

    private final PrintWriter progress = new PrintWriter(new StringWriter());

    @Test
    void orderingReplayUnderTheDefaultSchedulerRetriesAbortsAndEndsAsRecorded() throws Exception {
        for (EmbeddedPostgresServer server : pg.cluster().servers()) {
            TpcwTestDatabases.populate(server, TpcwTestDatabases.SMALL, TpcwTestDatabases.SEED);
        }
        Path traceFile = dir.resolve("ordering.trace");
        Recorder.Summary recorded = new Recorder(
                        TpcwTestDatabases.plain(pg.server(0)),
                        new Recorder.Settings(
                                Mix.ORDERING,
                                SESSIONS,
                                Duration.ofMinutes(5),
                                30,
                                Duration.ZERO,
                                3,
                                BestSellersVariant.SUBQUERY))
                .record(traceFile, progress);
        assertThat(recorded.errors()).isEmpty();
        Trace trace = TraceReader.read(traceFile);
        long markedOrder = firstOrder(trace);
        List<EmbeddedPostgresServer> backends = List.of(pg.server(1), pg.server(2));
        for (EmbeddedPostgresServer backend : backends) {
            abortOnceWhenInserted(backend, markedOrder);
        }

        PlayResult result;
        try (Controller controller = startRaidb1WithDefaultScheduler(backends)) {
            ConnectionFactory raidb =
                    new ConnectionFactory("jdbc:raidb://127.0.0.1:" + controller.port() + "/tpcw", "app", "apppw");
            result =
                    new TracePlayer(raidb, Pace.MAX, TpcwTestDatabases.UNTIL_COMMITTED).play(trace, SESSIONS, progress);
            for (EmbeddedPostgresServer backend : backends) {
                assertThat(controller
                                .virtualDatabase("tpcw")
                                .backend(backend.name())
                                .isEnabled())
                        .as(backend.name())
                        .isTrue();
            }
        }
        StringWriter summary = new StringWriter();
        PlayReport.print(result, new PrintWriter(summary, true));
        System.out.println(summary); // the retries this interleaving needed, for the record

        assertThat(result.errorsBySqlState()).isEmpty();
        assertThat(result.statements()).as("each trace statement counted once").isEqualTo(trace.statements());
        assertThat(result.retriesByInteraction()).containsKey("BuyConfirm");
        assertThat(result.retries())
                .isEqualTo(result.retriesByInteraction().values().stream()
                        .mapToLong(Long::longValue)
                        .sum())
                .isPositive();
        assertThat(result.retriedStatements()).isPositive();
        assertThat(result.maxRetries()).isEqualTo(TpcwTestDatabases.UNTIL_COMMITTED.maxRetries());
        long sent = result.latencyByStatementKind().values().stream()
                .mapToLong(LatencySummary::count)
                .sum();
        assertThat(sent).isEqualTo(result.statements() + result.retriedStatements());
        assertThat(summary.toString())
                .contains("retries (40001/40P01, at most " + TpcwTestDatabases.UNTIL_COMMITTED.maxRetries()
                        + " per transaction): " + result.retries());
        for (EmbeddedPostgresServer backend : backends) {
            assertThat(insertAttempts(backend))
                    .as("%s: aborted once, then inserted", backend.name())
                    .isEqualTo(2);
        }

        Map<String, String> recordedState = TpcwTestDatabases.checksums(pg.server(0));
        assertThat(recordedState.get("orders")).as("the recording wrote").doesNotStartWith("0:");
        for (EmbeddedPostgresServer replayed : backends) {
            assertThat(TpcwTestDatabases.checksums(replayed))
                    .as(replayed.name())
                    .isEqualTo(recordedState);
        }
    }

    private static long firstOrder(Trace trace) {
        return trace.sessions().values().stream()
                .flatMap(List::stream)
                .filter(e -> e.kind() == TraceEvent.Kind.STATEMENT)
                .map(e -> ORDER_ID.matcher(e.text()))
                .filter(Matcher::find)
                .mapToLong(m -> Long.parseLong(m.group(1)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("the ordering trace placed no order"));
    }

    /** Directly on the backend, unknown to the controller: the first insert of that order fails with 40001. */
    private static void abortOnceWhenInserted(EmbeddedPostgresServer backend, long order) throws SQLException {
        try (Connection c = backend.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE SEQUENCE retry_test_attempts");
            st.execute("CREATE FUNCTION retry_test_abort_once() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                    + " IF nextval('retry_test_attempts') = 1 THEN"
                    + "   RAISE EXCEPTION 'test: order % aborted once', NEW.o_id USING ERRCODE = 'serialization_failure';"
                    + " END IF; RETURN NEW; END $$");
            st.execute("CREATE TRIGGER retry_test_abort_once BEFORE INSERT ON orders FOR EACH ROW WHEN (NEW.o_id = "
                    + order + ") EXECUTE FUNCTION retry_test_abort_once()");
        }
    }

    private static long insertAttempts(EmbeddedPostgresServer backend) throws SQLException {
        try (Connection c = backend.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM retry_test_attempts")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private Controller startRaidb1WithDefaultScheduler(List<EmbeddedPostgresServer> backends) throws Exception {
        Path file = pg.controllerConfig("tpcw")
                .backends(backends)
                .replication("<raidb1 readPolicy=\"leastPending\" completion=\"all\"/>") // no <scheduler>: the default
                .dataDir(Files.createDirectories(dir.resolve("controller-data")))
                .writeTo(dir.resolve("raidb.xml"));
        return Controller.start(ConfigLoader.load(file));
    }
}
