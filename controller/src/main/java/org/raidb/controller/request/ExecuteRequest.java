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
 * @param escapeProcessing false when the client turned JDBC escape processing off: a plain statement
 *     then reaches the backend with its escapes as they are (with it on, the driver translated them)
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
        boolean call,
        boolean escapeProcessing) {

    public ExecuteRequest withMaxRows(long rows) {
        return new ExecuteRequest(
                sql,
                parameters,
                mode,
                returnGeneratedKeys,
                keyColumns,
                fetchSize,
                rows,
                queryTimeoutSeconds,
                call,
                escapeProcessing);
    }

    public ExecuteRequest withSql(String text) {
        return new ExecuteRequest(
                text,
                parameters,
                mode,
                returnGeneratedKeys,
                keyColumns,
                fetchSize,
                maxRows,
                queryTimeoutSeconds,
                call,
                escapeProcessing);
    }
}
