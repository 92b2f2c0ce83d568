package org.raidb.controller.config;

/**
 * The PostgreSQL wire-protocol front end: {@code <controller pgPort="…" pgAuthentication="…"/>}.
 *
 * @param port where PostgreSQL clients (psql, pgjdbc, psycopg) connect, on the controller's {@code host}; -1 when
 *     the front end is off (the default), 0 for any free port (tests)
 * @param authentication how they prove their virtual user's password: {@code scram-sha-256} (the default),
 *     {@code md5} or {@code password} (cleartext, for clients that know no other)
 */
public record PostgresWireSettings(int port, String authentication) {
    public static final String SCRAM_SHA_256 = "scram-sha-256";
    public static final String MD5 = "md5";
    public static final String PASSWORD = "password";
    public static final PostgresWireSettings OFF = new PostgresWireSettings(-1, SCRAM_SHA_256);

    public boolean enabled() {
        return port >= 0;
    }
}
