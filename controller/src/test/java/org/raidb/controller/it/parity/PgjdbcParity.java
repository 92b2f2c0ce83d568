package org.raidb.controller.it.parity;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * The same JDBC code run twice: through pgjdbc straight on a PostgreSQL server (the behaviour
 * applications were written against) and through the RAIDb driver and a controller over two
 * backends. pgjdbc works in a database of its own on the first server, so that the two runs never
 * see each other's rows. Register it on a static field:
 *
 * <pre>
 * &#64;RegisterExtension
 * static final PgjdbcParity parity = PgjdbcParity.withSchema("CREATE TABLE t (id int)");
 * </pre>
 */
final class PgjdbcParity implements BeforeAllCallback, AfterAllCallback, AfterEachCallback {
    /** JDBC code whose observable result is compared between the two drivers. */
    @FunctionalInterface
    interface JdbcCode<T> {
        T run(Connection c) throws Exception;
    }

    static final String REFERENCE_DATABASE = "pgjdbc_reference";
    static final String VIRTUAL_DATABASE = "shop";

    private final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database(VIRTUAL_DATABASE);
    private final List<String> schema;
    private EmbeddedPostgresServer reference;
    private ControllerFixture raidb;

    private PgjdbcParity(List<String> schema) {
        this.schema = schema;
    }

    /** Runs these statements through both drivers before the tests: the schema and rows they start from. */
    static PgjdbcParity withSchema(String... statements) {
        return new PgjdbcParity(List.of(statements));
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        pg.beforeAll(context);
        reference = pg.server(0);
        try (Connection c = reference.connect("postgres");
                Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + REFERENCE_DATABASE);
        }
        raidb = ControllerFixture.start(pg.controllerConfig(VIRTUAL_DATABASE), VIRTUAL_DATABASE);
        onBoth(c -> {
            try (Statement st = c.createStatement()) {
                for (String sql : schema) {
                    st.execute(sql);
                }
            }
            return null;
        });
    }

    @Override
    public void afterEach(ExtensionContext context) {
        pg.afterEach(context);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        try {
            if (raidb != null) {
                raidb.close();
            }
        } finally {
            pg.afterAll(context);
        }
    }

    PostgresClusterExtension cluster() {
        return pg;
    }

    ControllerFixture raidb() {
        return raidb;
    }

    /** A pgjdbc connection with pgjdbc's defaults (no ApplicationName of the harness's). */
    Connection pgjdbc() throws SQLException {
        return pgjdbc(new Properties());
    }

    Connection pgjdbc(Properties extra) throws SQLException {
        Properties p = new Properties();
        p.putAll(extra);
        p.setProperty("user", reference.user());
        p.setProperty("password", reference.password());
        return DriverManager.getConnection(reference.jdbcUrl(REFERENCE_DATABASE), p);
    }

    Connection raidbConnection() throws SQLException {
        return raidb.connect();
    }

    Connection raidbConnection(Properties extra) throws SQLException {
        Properties p = new Properties();
        p.putAll(extra);
        p.setProperty("user", ControllerFixture.USER);
        p.setProperty("password", ControllerFixture.PASSWORD);
        return DriverManager.getConnection(raidb.url(), p);
    }

    /** Runs {@code code} on both, for the schema and rows a test starts from. */
    void onBoth(JdbcCode<?> code) throws Exception {
        try (Connection c = pgjdbc()) {
            code.run(c);
        }
        try (Connection c = raidbConnection()) {
            code.run(c);
        }
    }

    /** What {@code code} observes through pgjdbc: its value, or the SQLState it failed with. */
    Object throughPgjdbc(JdbcCode<?> code) throws Exception {
        try (Connection c = pgjdbc()) {
            return Observed.of(() -> code.run(c));
        }
    }

    Object throughRaidb(JdbcCode<?> code) throws Exception {
        try (Connection c = raidbConnection()) {
            return Observed.of(() -> code.run(c));
        }
    }

    /** Asserts that the RAIDb driver observes what pgjdbc observes; returns that, for further checks. */
    Object assertSame(String what, JdbcCode<?> code) throws Exception {
        Object expected = throughPgjdbc(code);
        Object actual = throughRaidb(code);
        assertThat(actual)
                .as("%s: RAIDb driver (left) against pgjdbc (right)", what)
                .isEqualTo(expected);
        return expected;
    }

    /** Every row left in {@code rs}, each as the list of its columns' getString. */
    static List<String> rows(ResultSet rs) throws SQLException {
        List<String> out = new ArrayList<>();
        int columns = rs.getMetaData().getColumnCount();
        while (rs.next()) {
            List<String> row = new ArrayList<>(columns);
            for (int i = 1; i <= columns; i++) {
                row.add(rs.getString(i));
            }
            out.add(row.toString());
        }
        return out;
    }

    /** A value or, when the code threw, a text naming the exception's kind and SQLState. */
    static final class Observed {
        @FunctionalInterface
        interface Code {
            Object run() throws Exception;
        }

        private Observed() {}

        static Object of(Code code) throws Exception {
            try {
                return code.run();
            } catch (SQLException e) {
                return failure(e);
            } catch (RuntimeException e) {
                return "threw " + e.getClass().getName(); // pgjdbc fails so on a few conversions
            }
        }

        static String failure(SQLException e) {
            String kind = e instanceof java.sql.SQLFeatureNotSupportedException ? "not supported" : "SQLException";
            return kind + " " + e.getSQLState();
        }
    }
}
