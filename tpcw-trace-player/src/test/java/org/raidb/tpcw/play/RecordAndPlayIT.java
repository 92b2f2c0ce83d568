package org.raidb.tpcw.play;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.controller.Controller;
import org.raidb.controller.config.ConfigLoader;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;
import org.raidb.tpcw.interactions.BestSellersVariant;
import org.raidb.tpcw.interactions.Mix;
import org.raidb.tpcw.support.TpcwTestDatabases;
import org.raidb.tpcw.trace.Recorder;
import org.raidb.tpcw.trace.Trace;
import org.raidb.tpcw.trace.TraceEvent;
import org.raidb.tpcw.trace.TraceReader;

/**
 * Record on pg1, replay with many sessions on pg2 (plain pgjdbc) and through a RAIDb-1 controller
 * on pg3 + pg4: every replay counts exactly the trace's statements, has no error, and ends in the
 * state the recording left, so all four databases end identical.
 */
class RecordAndPlayIT {

    private static final int SESSIONS = 12;

    @RegisterExtension
    static PostgresClusterExtension pg = PostgresClusterExtension.servers(4).database("tpcw");

    @TempDir
    Path dir;

    private final PrintWriter progress = new PrintWriter(new StringWriter());

    @Test
    void shoppingTraceReplaysIdenticallyOnPlainPostgresAndOnRaidb1() throws Exception {
        recordAndReplay(Mix.SHOPPING, BestSellersVariant.SUBQUERY);
    }

    /** The paper's Best Sellers, temporary table inside a transaction, through the controller too. */
    @Test
    void orderingTraceWithTempTableBestSellersReplaysIdentically() throws Exception {
        recordAndReplay(Mix.ORDERING, BestSellersVariant.TEMP_TABLE);
    }

    private void recordAndReplay(Mix mix, BestSellersVariant bestSellers) throws Exception {
        for (EmbeddedPostgresServer server : pg.cluster().servers()) {
            TpcwTestDatabases.populate(server, TpcwTestDatabases.SMALL, TpcwTestDatabases.SEED);
        }
        Path traceFile = dir.resolve(mix.cliName() + ".trace");
        Recorder.Summary recorded = new Recorder(
                        TpcwTestDatabases.plain(pg.server(0)),
                        new Recorder.Settings(mix, SESSIONS, Duration.ofMinutes(5), 40, Duration.ZERO, 5, bestSellers))
                .record(traceFile, progress);
        assertThat(recorded.errors()).isEmpty();
        Trace trace = TraceReader.read(traceFile);
        assertThat(trace.statements()).isEqualTo(recorded.statements()).isGreaterThan(SESSIONS * 40L);
        assertThat(trace.sessions()).hasSize(SESSIONS);

        PlayResult plain =
                new TracePlayer(TpcwTestDatabases.plain(pg.server(1)), Pace.MAX).play(trace, SESSIONS, progress);
        assertAccountedFor(plain, trace);

        try (Controller controller = startRaidb1(pg.server(2), pg.server(3))) {
            ConnectionFactory raidb =
                    new ConnectionFactory("jdbc:raidb://127.0.0.1:" + controller.port() + "/tpcw", "app", "apppw");
            PlayResult throughRaidb =
                    new TracePlayer(raidb, Pace.MAX, TpcwTestDatabases.UNTIL_COMMITTED).play(trace, SESSIONS, progress);
            assertAccountedFor(throughRaidb, trace);
            System.out.println(mix.cliName() + " through RAIDb-1: " + throughRaidb.retries() + " retries "
                    + throughRaidb.retriesByInteraction() + ", " + throughRaidb.retriedStatements()
                    + " statements re-sent");
        }

        Map<String, String> recordedState = TpcwTestDatabases.checksums(pg.server(0));
        assertThat(recordedState.get("shopping_cart")).as("the recording wrote").doesNotStartWith("0:");
        for (EmbeddedPostgresServer replayed : List.of(pg.server(1), pg.server(2), pg.server(3))) {
            assertThat(TpcwTestDatabases.checksums(replayed))
                    .as(replayed.name())
                    .isEqualTo(recordedState);
        }
    }

    private static void assertAccountedFor(PlayResult result, Trace trace) {
        assertThat(result.errorsBySqlState()).isEmpty();
        assertThat(result.statements()).isEqualTo(trace.statements());
        long byKind = result.latencyByStatementKind().values().stream()
                .mapToLong(LatencySummary::count)
                .sum();
        assertThat(byKind)
                .as("every statement sent, re-sent ones included")
                .isEqualTo(trace.statements() + result.retriedStatements());
        long interactions = trace.sessions().values().stream()
                .flatMap(List::stream)
                .filter(e -> e.kind() == TraceEvent.Kind.INTERACTION)
                .count();
        long byInteraction = result.latencyByInteraction().values().stream()
                .mapToLong(LatencySummary::count)
                .sum();
        assertThat(byInteraction).isEqualTo(interactions);
        long commits = trace.sessions().values().stream()
                .flatMap(List::stream)
                .filter(e -> e.kind() == TraceEvent.Kind.COMMIT)
                .count();
        assertThat(result.transactions()).isGreaterThanOrEqualTo(commits);
        assertThat(result.requestsPerMinute()).isPositive();
    }

    private Controller startRaidb1(EmbeddedPostgresServer... backends) throws Exception {
        Path file = pg.controllerConfig("tpcw")
                .backends(List.of(backends))
                // The default scheduler; the player retries its deadlock victims (see docs/tpcw.md).
                .replication("<raidb1 readPolicy=\"leastPending\" completion=\"all\"/>")
                .dataDir(Files.createDirectories(dir.resolve("controller-data")))
                .writeTo(dir.resolve("raidb.xml"));
        return Controller.start(ConfigLoader.load(file));
    }
}
