package org.raidb.controller.request;

import java.util.List;

/**
 * One EXECUTE frame from a client.
 *
 * @param parameters null for a plain Statement, else the bound values (possibly empty)
 * @param mode Protocol.MODE_QUERY, MODE_UPDATE or MODE_ANY
 * @param keyColumns generated key column names the client asked for, or null
 * @param fetchSize rows per batch sent to the client (never 0 here: the default is applied on receipt)
 * @param maxRows 0 for no limit
 * @param queryTimeoutSeconds 0 for none
 * @param call sent through a CallableStatement (EXECUTE flag FLAG_CALL): run as a call on every
 *     backend, whatever the text looks like
 */
public record ExecuteRequest(
    String sql,
    List<Object> parameters,
    byte mode,
    boolean returnGeneratedKeys,
    List<String> keyColumns,
    int fetchSize,
    long maxRows,
    int queryTimeoutSeconds,
    boolean call) {

  /** A statement that is not a call. */
  public ExecuteRequest(String sql, List<Object> parameters, byte mode, boolean returnGeneratedKeys,
      List<String> keyColumns, int fetchSize, long maxRows, int queryTimeoutSeconds) {
    this(sql, parameters, mode, returnGeneratedKeys, keyColumns, fetchSize, maxRows, queryTimeoutSeconds, false);
  }

  public ExecuteRequest withMaxRows(long rows) {
    return new ExecuteRequest(sql, parameters, mode, returnGeneratedKeys, keyColumns, fetchSize, rows, queryTimeoutSeconds,
        call);
  }

  public ExecuteRequest withSql(String text) {
    return new ExecuteRequest(text, parameters, mode, returnGeneratedKeys, keyColumns, fetchSize, maxRows,
        queryTimeoutSeconds, call);
  }
}
