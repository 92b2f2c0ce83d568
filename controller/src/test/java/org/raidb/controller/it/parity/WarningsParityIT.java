package org.raidb.controller.it.parity;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Notices and warnings a backend raises reach the client's SQLWarnings where pgjdbc puts them. */
class WarningsParityIT {
    @RegisterExtension
    static final PgjdbcParity parity = PgjdbcParity.withSchema(
            "CREATE TABLE events (id int PRIMARY KEY, what text)",
            "CREATE FUNCTION noisy(n int) RETURNS int LANGUAGE plpgsql AS $$\n"
                    + "BEGIN RAISE NOTICE 'noisy %', n; RETURN n * 2; END $$",
            "CREATE FUNCTION log_event() RETURNS trigger LANGUAGE plpgsql AS $$\n"
                    + "BEGIN RAISE WARNING 'event % written', NEW.id; RETURN NEW; END $$",
            "CREATE TRIGGER events_logged BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION log_event()");

    static List<String> chain(SQLWarning w) {
        List<String> out = new ArrayList<>();
        for (; w != null; w = w.getNextWarning()) {
            out.add(w.getSQLState() + " " + w.getMessage() + " " + w.getErrorCode());
        }
        return out;
    }

    @Test
    void noticesOfADoBlockAreTheStatementsWarnings() throws Exception {
        Object seen = parity.assertSame("DO block", c -> {
            try (Statement st = c.createStatement()) {
                st.execute("DO $$ BEGIN RAISE NOTICE 'hello %', 42; RAISE WARNING 'careful'; END $$");
                List<String> out = new ArrayList<>();
                out.add("statement " + chain(st.getWarnings()));
                out.add("connection " + chain(c.getWarnings()));
                st.execute("SELECT 1");
                out.add("after the next statement " + chain(st.getWarnings()));
                return out;
            }
        });
        assertThat(seen.toString()).contains("hello 42").contains("careful");
    }

    @Test
    void noticesOfAFunctionInAReadReachTheStatement() throws Exception {
        parity.assertSame("SELECT noisy(?)", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT noisy(?)")) {
                ps.setInt(1, 21);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1) + " statement " + chain(ps.getWarnings()) + " result set "
                            + chain(rs.getWarnings());
                }
            }
        });
    }

    @Test
    void warningsOfATriggerInAWriteAndABatchReachTheStatement() throws Exception {
        parity.assertSame("insert and batch", c -> {
            List<String> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO events VALUES (?, 'x')")) {
                ps.setInt(1, 1);
                ps.executeUpdate();
                out.add("update " + chain(ps.getWarnings()));
                ps.clearWarnings();
                out.add("cleared " + chain(ps.getWarnings()));
                ps.setInt(1, 2);
                ps.addBatch();
                ps.setInt(1, 3);
                ps.addBatch();
                ps.executeBatch();
                out.add("batch " + chain(ps.getWarnings()));
            }
            return out;
        });
    }
}
