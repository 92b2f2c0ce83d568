package org.raidb.test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * The machine's MariaDB on 127.0.0.1:3306 (root, empty password), for heterogeneous tests. Tests
 * use only databases they create and drop, and skip when no MariaDB answers:
 * {@code Assumptions.assumeTrue(MariaDbServer.mariaDbAvailable(), "no MariaDB on 127.0.0.1:3306")}.
 */
public final class MariaDbServer {

    public static final String HOST = "127.0.0.1";
    public static final int PORT = 3306;
    public static final String USER = "root";
    public static final String PASSWORD = "";

    private static Boolean available;

    private MariaDbServer() {}

    /** Whether MariaDB accepts root on 127.0.0.1:3306; asked once per JVM, within 3 seconds. */
    public static synchronized boolean mariaDbAvailable() {
        if (available == null) {
            try (Connection c = connect("")) {
                available = c.isValid(3);
            } catch (SQLException e) {
                available = false;
            }
        }
        return available;
    }

    public static String jdbcUrl(String database) {
        return "jdbc:mariadb://" + HOST + ":" + PORT + "/" + database;
    }

    /** A plain MariaDB connection to {@code database} ("" for none). */
    public static Connection connect(String database) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", USER);
        p.setProperty("password", PASSWORD);
        p.setProperty("connectTimeout", "3000");
        return DriverManager.getConnection(jdbcUrl(database), p);
    }

    /** Drops (if there) and creates a database of the test's own. */
    public static void recreateDatabase(String name) throws SQLException {
        try (Connection c = connect("");
                Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS `" + checked(name) + "`");
            s.execute("CREATE DATABASE `" + checked(name) + "`");
        }
    }

    public static void dropDatabase(String name) throws SQLException {
        try (Connection c = connect("");
                Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS `" + checked(name) + "`");
        }
    }

    /** Only names of the tests' own making, never a system database. */
    private static String checked(String name) {
        if (!name.matches("raidb_[a-z0-9_]+")) {
            throw new IllegalArgumentException("test databases are named raidb_*: " + name);
        }
        return name;
    }
}
