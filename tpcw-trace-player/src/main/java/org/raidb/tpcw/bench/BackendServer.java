package org.raidb.tpcw.bench;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** One PostgreSQL server started by {@code raidb backends}, as its port file describes it. */
@JsonIgnoreProperties(ignoreUnknown = true)
record BackendServer(String name, int port, String url, String user, String password, long pid) {

    /** The same server, another database (the harness resets "tpcw" from the "postgres" database). */
    String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }
}
