package org.raidb.controller.it.parity;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A prepared statement describes its result columns and its parameters before it runs, as pgjdbc's
 * does: the controller asks a backend to describe it.
 */
class StatementDescriptionParityIT {
    @RegisterExtension
    static final PgjdbcParity parity = PgjdbcParity.withSchema(
            "CREATE TABLE items (id serial PRIMARY KEY, name varchar(40) NOT NULL, price numeric(8,2), "
                    + "added timestamptz, tags text[])");

    static String columns(ResultSetMetaData md) throws Exception {
        if (md == null) {
            return "no result columns";
        }
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            out.add(md.getColumnLabel(i) + ":" + md.getColumnType(i) + ":" + md.getColumnTypeName(i) + ":"
                    + md.getColumnClassName(i) + ":" + md.getPrecision(i) + ":" + md.getScale(i) + ":"
                    + md.isNullable(i) + ":"
                    + md.getTableName(i) + ":" + md.isAutoIncrement(i));
        }
        return out.toString();
    }

    static String parameters(ParameterMetaData md) throws Exception {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= md.getParameterCount(); i++) {
            out.add(md.getParameterType(i) + ":" + md.getParameterTypeName(i) + ":" + md.getParameterClassName(i) + ":"
                    + md.getParameterMode(i) + ":" + md.isNullable(i) + ":" + md.isSigned(i) + ":" + md.getPrecision(i)
                    + ":"
                    + md.getScale(i));
        }
        return md.getParameterCount() + " " + out;
    }

    static String describe(Connection c, String sql) throws Exception {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            return columns(ps.getMetaData()) + " | " + parameters(ps.getParameterMetaData());
        }
    }

    @Test
    void aQueryIsDescribedBeforeItRuns() throws Exception {
        Object description = parity.assertSame(
                "query",
                c -> describe(
                        c,
                        "SELECT id, name AS label, price * 2 AS doubled, added, tags FROM items WHERE id = ? AND name LIKE ?"));
        assertThat(description.toString()).contains("label:12:varchar").contains("| 2 [4:int4:java.lang.Integer");
    }

    @Test
    void writesAreDescribedToo() throws Exception {
        parity.assertSame("insert", c -> describe(c, "INSERT INTO items (name, price, added) VALUES (?, ?, ?)"));
        parity.assertSame(
                "insert returning", c -> describe(c, "INSERT INTO items (name) VALUES (?) RETURNING id, name"));
        parity.assertSame("update", c -> describe(c, "UPDATE items SET tags = ? WHERE price > ?"));
    }

    @Test
    void aStatementThatCannotBeDescribedFailsAsWithPgjdbc() throws Exception {
        parity.assertSame("unknown table", c -> describe(c, "SELECT * FROM no_such_table WHERE id = ?"));
    }

    @Test
    void describingInsideATransactionSeesItsOwnTables() throws Exception {
        parity.assertSame("table created in the transaction", c -> {
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                st.execute("CREATE TABLE fresh (id int, note text)");
                return describe(c, "SELECT note FROM fresh WHERE id = ?");
            } finally {
                c.rollback();
            }
        });
    }

    @Test
    void afterExecutionTheResultDescribesItself() throws Exception {
        parity.assertSame("executed", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT 1 AS one, 'x'::text AS ex")) {
                ps.executeQuery().close();
                return columns(ps.getMetaData());
            }
        });
    }
}
