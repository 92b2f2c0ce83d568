package org.raidb.tools.bench;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The two operations whose overhead the benchmark measures, each one statement on a reused
 * PreparedStatement, as a pooled application would run it: a point SELECT and a single-row
 * auto-commit UPDATE, both by random primary key.
 */
enum Workload {
    POINT_SELECT("select", "point SELECT", "SELECT balance, filler FROM bench_accounts WHERE id = ?") {
        @Override
        void runOnce(PreparedStatement ps, int key) throws SQLException {
            ps.setInt(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException(
                            "no row " + key + " in bench_accounts: the table was not filled as expected");
                }
                // Read the values, so that neither driver can skip decoding them.
                rs.getLong(1);
                rs.getString(2);
            }
        }
    },
    SINGLE_ROW_UPDATE("update", "single-row UPDATE", "UPDATE bench_accounts SET balance = balance + 1 WHERE id = ?") {
        @Override
        void runOnce(PreparedStatement ps, int key) throws SQLException {
            ps.setInt(1, key);
            int updated = ps.executeUpdate();
            if (updated != 1) {
                throw new SQLException("UPDATE of row " + key + " changed " + updated + " rows, not 1");
            }
        }
    };

    private final String option;
    private final String title;
    private final String sql;

    Workload(String option, String title, String sql) {
        this.option = option;
        this.title = title;
        this.sql = sql;
    }

    /** Its name on the command line ({@code --workload select,update}). */
    String option() {
        return option;
    }

    /** The workload named {@code option} on the command line. */
    static Workload ofOption(String option) {
        for (Workload w : values()) {
            if (w.option.equals(option)) {
                return w;
            }
        }
        throw new IllegalArgumentException("no workload '" + option + "' (select, update)");
    }

    String title() {
        return title;
    }

    String sql() {
        return sql;
    }

    /** Lower-case, dash-separated: for file names. */
    String slug() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    /** One operation on the row of this key; throws if the database did not do what was asked. */
    abstract void runOnce(PreparedStatement ps, int key) throws SQLException;
}
