package org.raidb.controller.it.parity;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * TYPE_SCROLL_INSENSITIVE result sets (what Hibernate's scroll() asks for) move as pgjdbc's do, and
 * CONCUR_UPDATABLE is refused where pgjdbc refuses it.
 */
class ScrollableResultSetParityIT {
    @RegisterExtension
    static final PgjdbcParity parity = PgjdbcParity.withSchema(
            "CREATE TABLE numbers (n int PRIMARY KEY)", "INSERT INTO numbers SELECT generate_series(1, 7)");

    /** A move, what it returned, and where the result set stands after it. */
    @FunctionalInterface
    interface Move {
        Object apply(ResultSet rs) throws SQLException;
    }

    static String trace(ResultSet rs, String name, Move move) throws Exception {
        Object returned = PgjdbcParity.Observed.of(() -> move.apply(rs));
        return name + "=" + returned + " row " + rs.getRow() + " first " + rs.isFirst() + " last " + rs.isLast()
                + " before " + rs.isBeforeFirst() + " after " + rs.isAfterLast()
                + " value " + PgjdbcParity.Observed.of(() -> rs.getInt(1));
    }

    static List<String> walk(ResultSet rs) throws Exception {
        List<String> out = new ArrayList<>();
        out.add("type " + rs.getType() + " concurrency " + rs.getConcurrency());
        out.add(trace(rs, "start", r -> null));
        out.add(trace(rs, "next", ResultSet::next));
        out.add(trace(rs, "last", ResultSet::last));
        out.add(trace(rs, "next", ResultSet::next));
        out.add(trace(rs, "previous", ResultSet::previous));
        out.add(trace(rs, "absolute(3)", r -> r.absolute(3)));
        out.add(trace(rs, "relative(2)", r -> r.relative(2)));
        out.add(trace(rs, "relative(-10)", r -> r.relative(-10)));
        out.add(trace(rs, "relative(1)", r -> r.relative(1)));
        out.add(trace(rs, "absolute(-2)", r -> r.absolute(-2)));
        out.add(trace(rs, "absolute(0)", r -> r.absolute(0)));
        out.add(trace(rs, "absolute(99)", r -> r.absolute(99)));
        out.add(trace(rs, "previous", ResultSet::previous));
        out.add(trace(rs, "first", ResultSet::first));
        out.add(trace(rs, "previous", ResultSet::previous));
        out.add(trace(rs, "afterLast", r -> {
            r.afterLast();
            return null;
        }));
        out.add(trace(rs, "beforeFirst", r -> {
            r.beforeFirst();
            return null;
        }));
        out.add(trace(rs, "setFetchDirection(REVERSE)", r -> {
            r.setFetchDirection(ResultSet.FETCH_REVERSE);
            return r.getFetchDirection();
        }));
        return out;
    }

    @Test
    void aScrollInsensitiveResultSetMovesAsPgjdbcMoves() throws Exception {
        Object trace = parity.assertSame("moves on 7 rows", c -> {
            try (Statement st = c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY)) {
                st.setFetchSize(2); // more than one batch: the driver must still hold them all
                try (ResultSet rs = st.executeQuery("SELECT n FROM numbers ORDER BY n")) {
                    return "statement type " + st.getResultSetType() + " " + walk(rs);
                }
            }
        });
        assertThat(trace.toString())
                .contains("absolute(3)=true row 3")
                .contains("last=true row 7 first false last true");
    }

    @Test
    void anEmptyScrollableResultSetIsNeitherBeforeFirstNorAfterLast() throws Exception {
        parity.assertSame("moves on no rows", c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT n FROM numbers WHERE n > ?",
                    ResultSet.TYPE_SCROLL_INSENSITIVE,
                    ResultSet.CONCUR_READ_ONLY)) {
                ps.setInt(1, 100);
                try (ResultSet rs = ps.executeQuery()) {
                    return walk(rs);
                }
            }
        });
    }

    @Test
    void maxRowsLimitsTheRowsAScrollableResultSetHolds() throws Exception {
        parity.assertSame("maxRows 3", c -> {
            try (Statement st = c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY)) {
                st.setMaxRows(3);
                try (ResultSet rs = st.executeQuery("SELECT n FROM numbers ORDER BY n")) {
                    List<Integer> seen = new ArrayList<>();
                    while (rs.next()) {
                        seen.add(rs.getInt(1));
                    }
                    rs.previous();
                    return seen + " then " + rs.getRow() + ":" + rs.getInt(1) + " " + rs.isLast();
                }
            }
        });
    }

    @Test
    void aForwardOnlyResultSetRefusesToScroll() throws Exception {
        parity.assertSame("previous on forward-only", c -> {
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT n FROM numbers ORDER BY n")) {
                rs.next();
                return PgjdbcParity.Observed.of(rs::previous) + " " + PgjdbcParity.Observed.of(() -> rs.absolute(1));
            }
        });
    }

    @Test
    void anUpdatableResultSetWithoutTheKeyRefusesUpdates() throws Exception {
        Object refused = parity.assertSame("updateInt on a computed column", c -> {
            try (Statement st = c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE);
                    ResultSet rs = st.executeQuery("SELECT n * 2 AS doubled FROM numbers ORDER BY 1")) {
                rs.next();
                try {
                    rs.updateInt(1, 100);
                    rs.updateRow();
                    return "updated";
                } catch (SQLException e) {
                    return "refused"; // pgjdbc: not updatable (24000); RAIDb: not supported (0A000), both say why
                }
            }
        });
        assertThat(refused).isEqualTo("refused");
    }
}
