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
 */
public record ExecuteRequest(
    String sql,
    List<Object> parameters,
    byte mode,
    boolean returnGeneratedKeys,
    List<String> keyColumns,
    int fetchSize,
    long maxRows,
    int queryTimeoutSeconds) {

  public ExecuteRequest withMaxRows(long rows) {
    return new ExecuteRequest(sql, parameters, mode, returnGeneratedKeys, keyColumns, fetchSize, rows, queryTimeoutSeconds);
  }
}
