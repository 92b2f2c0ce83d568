package org.raidb.tools.bench;

/**
 * Which way the client threads reach PostgreSQL: straight to one server, through the RAIDb
 * controller (with the recovery log, as the product ships, or without it; over TLS), or through pgpool-II.
 */
enum Side {
    PGJDBC("pgjdbc"),
    RAIDB("RAIDb"),
    /** The controller with {@code <recoveryLog enabled="false"/>}: never the default, always labelled so. */
    RAIDB_LOG_OFF("RAIDb log off"),
    /** The controller with {@code <tls>}, clients on {@code sslmode=verify-full}: {@code bench tls} only. */
    RAIDB_TLS("RAIDb TLS"),
    PGPOOL("pgpool-II");

    private final String title;

    Side(String title) {
        this.title = title;
    }

    String title() {
        return title;
    }

    boolean isRaidb() {
        return this == RAIDB || this == RAIDB_LOG_OFF || this == RAIDB_TLS;
    }
}
