package org.raidb.tools.bench;

/**
 * Which way the client threads reach PostgreSQL: straight to one server, through the RAIDb
 * controller (with the recovery log, as the product ships, or without it), or through pgpool-II.
 */
enum Side {
    PGJDBC("pgjdbc"),
    RAIDB("RAIDb"),
    /** The controller with {@code <recoveryLog enabled="false"/>}: never the default, always labelled so. */
    RAIDB_LOG_OFF("RAIDb log off"),
    PGPOOL("pgpool-II");

    private final String title;

    Side(String title) {
        this.title = title;
    }

    String title() {
        return title;
    }

    boolean isRaidb() {
        return this == RAIDB || this == RAIDB_LOG_OFF;
    }
}
