package org.raidb.recovery;

import java.sql.SQLException;

/**
 * A recovery-log failure. A {@link SQLException} so that the controller can hand it on to a client
 * unchanged, with a SQLState and a message that says what to check.
 */
public class RecoveryLogException extends SQLException {

  private static final long serialVersionUID = 1L;

  public RecoveryLogException(String message, String sqlState) {
    super(message, sqlState);
  }

  public RecoveryLogException(String message, String sqlState, Throwable cause) {
    super(message, sqlState, cause);
  }
}
