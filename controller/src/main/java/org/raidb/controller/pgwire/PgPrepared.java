package org.raidb.controller.pgwire;

/**
 * A statement a Parse message named (or the unnamed one).
 *
 * @param sql the text as the client wrote it
 * @param text the text as the request path takes it, with its parameter markers
 * @param oids the type of each parameter $1…$n as the client declared it; 0 where it left it unspecified
 * @param empty the text holds no statement: executing it answers EmptyQueryResponse
 */
@SuppressWarnings("ArrayRecordComponent") // never compared; read-only once parsed
record PgPrepared(String name, String sql, PgSqlText text, int[] oids, boolean empty) {

    int parameterCount() {
        return oids.length;
    }

    String describeName() {
        return name.isEmpty() ? "unnamed prepared statement" : "prepared statement \"" + name + "\"";
    }
}
