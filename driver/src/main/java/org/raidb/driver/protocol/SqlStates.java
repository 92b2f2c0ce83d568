package org.raidb.driver.protocol;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;

/** SQLStates the controller and the driver raise themselves, and the SQLException subclass each maps to. */
public final class SqlStates {
  public static final String CONNECTION_UNABLE = "08001";
  public static final String CONNECTION_DOES_NOT_EXIST = "08003";
  public static final String CONNECTION_REJECTED = "08004";
  public static final String CONNECTION_FAILURE = "08006";
  public static final String PROTOCOL_VIOLATION = "08P01";
  public static final String FEATURE_NOT_SUPPORTED = "0A000";
  public static final String INVALID_PARAMETER_VALUE = "22023";
  public static final String INVALID_TRANSACTION_STATE = "25000";
  public static final String ACTIVE_TRANSACTION = "25001";
  public static final String READ_ONLY_TRANSACTION = "25006";
  public static final String INVALID_PASSWORD = "28P01";
  public static final String INVALID_AUTHORIZATION = "28000";
  public static final String INVALID_CATALOG = "3D000";
  public static final String INVALID_SAVEPOINT = "3B001";
  public static final String SERIALIZATION_FAILURE = "40001";
  public static final String SYNTAX_ERROR = "42601";
  public static final String UNDEFINED_TABLE = "42P01";
  public static final String LOCK_NOT_AVAILABLE = "55P03";
  public static final String OBJECT_IN_USE = "55006";
  public static final String QUERY_CANCELED = "57014";
  public static final String ADMIN_SHUTDOWN = "57P01";
  public static final String INTERNAL_ERROR = "XX000";

  private SqlStates() {}

  /** Builds the most specific standard SQLException subclass for a state, as pgjdbc users expect to catch. */
  public static SQLException exception(String message, String state, int vendorCode) {
    if (state == null) {
      return new SQLException(message, null, vendorCode);
    }
    if (state.equals(QUERY_CANCELED)) {
      return new SQLTimeoutException(message, state, vendorCode);
    }
    if (state.startsWith("08")) {
      return state.equals(CONNECTION_FAILURE)
          ? new SQLTransientConnectionException(message, state, vendorCode)
          : new SQLNonTransientConnectionException(message, state, vendorCode);
    }
    if (state.startsWith("0A")) {
      return new SQLFeatureNotSupportedException(message, state, vendorCode);
    }
    if (state.startsWith("28")) {
      return new SQLInvalidAuthorizationSpecException(message, state, vendorCode);
    }
    if (state.startsWith("23")) {
      return new SQLIntegrityConstraintViolationException(message, state, vendorCode);
    }
    if (state.startsWith("40")) {
      return new SQLTransactionRollbackException(message, state, vendorCode);
    }
    if (state.startsWith("42")) {
      return new SQLSyntaxErrorException(message, state, vendorCode);
    }
    return new SQLException(message, state, vendorCode);
  }
}
