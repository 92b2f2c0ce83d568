package org.raidb.tools.bench;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The two operations whose overhead the benchmark measures, each one statement on a reused
 * PreparedStatement, as a pooled application would run it.
 */
enum Workload {
  POINT_SELECT("point SELECT", "SELECT balance, filler FROM bench_accounts WHERE id = ?") {
    @Override
    void runOnce(PreparedStatement ps, int key) throws SQLException {
      ps.setInt(1, key);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("no row " + key + " in bench_accounts: the table was not filled as expected");
        }
        // Read the values, so that neither driver can skip decoding them.
        rs.getLong(1);
        rs.getString(2);
      }
    }
  },
  SINGLE_ROW_UPDATE("single-row UPDATE", "UPDATE bench_accounts SET balance = balance + 1 WHERE id = ?") {
    @Override
    void runOnce(PreparedStatement ps, int key) throws SQLException {
      ps.setInt(1, key);
      int updated = ps.executeUpdate();
      if (updated != 1) {
        throw new SQLException("UPDATE of row " + key + " changed " + updated + " rows, not 1");
      }
    }
  };

  private final String title;
  private final String sql;

  Workload(String title, String sql) {
    this.title = title;
    this.sql = sql;
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
