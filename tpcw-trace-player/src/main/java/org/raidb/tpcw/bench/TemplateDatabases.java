package org.raidb.tpcw.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Every run starts from the same populated state: populate once into "tpcw", keep a copy as a
 * template database, and before each run recreate "tpcw" from the template (a file copy, seconds
 * instead of a populate).
 */
final class TemplateDatabases {

    static final String DATABASE = "tpcw";
    static final String TEMPLATE = "tpcw_template";

    private TemplateDatabases() {}

    static void saveTemplate(BackendServer server) throws SQLException {
        run(server, "DROP DATABASE IF EXISTS " + TEMPLATE, "CREATE DATABASE " + TEMPLATE + " TEMPLATE " + DATABASE);
    }

    static void reset(List<BackendServer> servers) throws SQLException {
        for (BackendServer server : servers) {
            run(
                    server,
                    "DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)",
                    "CREATE DATABASE " + DATABASE + " TEMPLATE " + TEMPLATE);
        }
    }

    private static void run(BackendServer server, String... statements) throws SQLException {
        try (Connection c = DriverManager.getConnection(server.url("postgres"), server.user(), server.password());
                Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }
}
