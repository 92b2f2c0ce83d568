package org.raidb.tpcw.play;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.test.PostgresClusterExtension;
import org.raidb.tpcw.support.TpcwTestDatabases;
import org.raidb.tpcw.trace.Trace;
import org.raidb.tpcw.trace.TraceEvent;

/**
 * {@code --pace recorded}: no event is played before its recorded offset. Each statement of a
 * hand-made trace stamps the database server's clock when it runs; every stamp must be at least its
 * offset after a stamp taken before the replay started (a lower bound only: how late a statement may
 * run is the machine's business, not the player's).
 */
class RecordedPaceIT {
    @RegisterExtension
    static PostgresClusterExtension pg = PostgresClusterExtension.servers(1).database("tpcw");

    /** Offsets in microseconds, by session, of the statements of the trace. */
    private static final Map<Integer, long[]> OFFSETS = Map.of(
            1, new long[] {0, 450_000, 900_000},
            2, new long[] {150_000, 600_000},
            3, new long[] {300_000, 750_000, 1_200_000});

    @Test
    void recordedPaceRunsNoStatementBeforeItsOffsetAndKeepsEachSessionsOrder() throws Exception {
        try (Connection c = pg.server(0).connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE pace_log (session int, step int, offset_us bigint, ran_at timestamptz)");
        }
        Map<Integer, List<TraceEvent>> sessions = new LinkedHashMap<>();
        long statements = 0;
        for (int session = 1; session <= 3; session++) {
            List<TraceEvent> events = new ArrayList<>();
            long[] offsets = OFFSETS.get(session);
            events.add(new TraceEvent(offsets[0], session, TraceEvent.Kind.INTERACTION, "Home"));
            for (int step = 0; step < offsets.length; step++) {
                events.add(TraceEvent.statement(
                        offsets[step],
                        session,
                        "INSERT INTO pace_log VALUES (" + session + ", " + step + ", " + offsets[step]
                                + ", clock_timestamp())"));
                statements++;
            }
            sessions.put(session, events);
        }
        Trace trace = new Trace(Map.of("mix", "test"), sessions, statements, statements + 3);

        double before;
        try (Connection c = pg.server(0).connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT extract(epoch FROM clock_timestamp())")) {
            rs.next();
            before = rs.getDouble(1);
        }
        PlayResult result = new TracePlayer(TpcwTestDatabases.plain(pg.server(0)), Pace.RECORDED)
                .play(trace, 3, new PrintWriter(new StringWriter()));

        assertThat(result.errors()).isZero();
        assertThat(result.statements()).isEqualTo(statements);
        assertThat(result.pace()).isEqualTo("recorded");
        assertThat(result.elapsedSeconds())
                .as("the replay lasts at least up to the last offset")
                .isGreaterThanOrEqualTo(trace.durationMicros() / 1e6);
        try (Connection c = pg.server(0).connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT session, step, offset_us, extract(epoch FROM ran_at) - " + before
                        + " FROM pace_log ORDER BY session, step")) {
            int rows = 0;
            int lastSession = 0;
            double lastRanAt = -1;
            while (rs.next()) {
                rows++;
                int session = rs.getInt(1);
                double ranAfterSeconds = rs.getDouble(4);
                assertThat(ranAfterSeconds)
                        .as("session %d step %d, recorded at %d us", session, rs.getInt(2), rs.getLong(3))
                        .isGreaterThanOrEqualTo(rs.getLong(3) / 1e6);
                if (session == lastSession) {
                    assertThat(ranAfterSeconds)
                            .as("session %d keeps its order", session)
                            .isGreaterThan(lastRanAt);
                }
                lastSession = session;
                lastRanAt = ranAfterSeconds;
            }
            assertThat(rows).isEqualTo(statements);
        }
    }
}
