package org.raidb.tpcw.play;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/** Connections to any JDBC URL: plain PostgreSQL, a RAIDb virtual database, or another product. */
public record ConnectionFactory(String url, String user, String password) {

    /** A new connection; a failure says which URL and user did not answer. */
    public Connection open() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        try {
            return DriverManager.getConnection(url, properties);
        } catch (SQLException e) {
            throw new SQLException(
                    "cannot connect to " + url + " as " + user + ": " + firstLine(e.getMessage()), e.getSQLState(), e);
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "no reason given";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
