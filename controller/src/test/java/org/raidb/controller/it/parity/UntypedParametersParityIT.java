package org.raidb.controller.it.parity;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.recovery.Progress;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.embedded.EmbeddedPostgresServer;

/**
 * {@code setObject(x, Types.OTHER)}: text whose type the server infers from where it goes (jsonb, an
 * enum), in a write, and again when the recovery log replays that write.
 */
class UntypedParametersParityIT {
    @RegisterExtension
    static final PgjdbcParity parity = PgjdbcParity.withSchema(
            "CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')",
            "CREATE TABLE docs (id int PRIMARY KEY, body jsonb, feeling mood)",
            "CREATE TABLE replayed_docs (LIKE docs)");

    static int insert(Connection c, String table, int id, String json, String mood) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?, ?)")) {
            ps.setInt(1, id);
            ps.setObject(2, json, Types.OTHER);
            ps.setObject(3, mood, Types.OTHER);
            return ps.executeUpdate();
        }
    }

    static List<String> rows(Connection c, String table) throws Exception {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT id, body, feeling, pg_typeof(feeling)::text FROM " + table + " ORDER BY id")) {
            while (rs.next()) {
                out.add(rs.getInt(1) + " " + rs.getString(2) + " " + rs.getString(3) + " " + rs.getString(4));
            }
        }
        return out;
    }

    @Test
    void jsonAndEnumTextWithTypesOtherAreWritten() throws Exception {
        Object rows = parity.assertSame("insert with Types.OTHER, then read", c -> {
            int count = insert(c, "docs", 1, "{\"a\": [1, 2]}", "happy");
            return count + " " + rows(c, "docs");
        });
        assertThat(rows.toString()).contains("{\"a\": [1, 2]} happy mood");
        // A value the enum does not have is the server's error, the same way.
        parity.assertSame("bad enum value", c -> insert(c, "docs", 2, "{}", "furious"));
        // A null with Types.OTHER.
        parity.assertSame("null of Types.OTHER", c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO docs VALUES (?, ?, ?)")) {
                ps.setInt(1, 3);
                ps.setObject(2, null, Types.OTHER);
                ps.setNull(3, Types.OTHER);
                ps.executeUpdate();
            }
            return rows(c, "docs");
        });
    }

    @Test
    void theRecoveryLogReplaysUntypedValuesAsTheyWereWritten() throws Exception {
        VirtualDatabase vdb = parity.raidb().controller().virtualDatabase("shop");
        EmbeddedPostgresServer second = parity.cluster().server(1);
        DatabaseBackend pg2 = vdb.backend(second.name());
        vdb.disableBackend(pg2, "test: misses the writes the log replays").join();
        try (Connection c = parity.raidbConnection()) {
            insert(c, "replayed_docs", 10, "{\"replayed\": true}", "ok");
            insert(c, "replayed_docs", 11, "[1, \"two\"]", "sad");
        }
        vdb.recovery().enable(pg2).run(Progress.NONE);
        assertThat(pg2.isEnabled()).isTrue();

        List<String> expected;
        try (Connection first = parity.cluster().server(0).connect()) {
            expected = rows(first, "replayed_docs");
        }
        try (Connection replayed = second.connect()) {
            assertThat(rows(replayed, "replayed_docs"))
                    .isEqualTo(expected)
                    .anyMatch(r -> r.startsWith("11 [1, \"two\"] sad mood"));
        }
    }
}
