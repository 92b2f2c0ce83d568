package org.raidb.controller.it.parity;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** getGeneratedKeys() after executeBatch(): the keys of every row of the batch, as pgjdbc returns them. */
class BatchGeneratedKeysParityIT {
    @RegisterExtension
    static final PgjdbcParity parity = PgjdbcParity.withSchema(
            "CREATE TABLE items (id serial PRIMARY KEY, code text UNIQUE, name text)",
            "CREATE TABLE named (id serial PRIMARY KEY, code text UNIQUE, name text)",
            "CREATE TABLE failing (id serial PRIMARY KEY, code text UNIQUE, name text)");

    static List<String> batch(PreparedStatement ps, String... names) throws Exception {
        for (String name : names) {
            ps.setString(1, name.toLowerCase());
            ps.setString(2, name);
            ps.addBatch();
        }
        List<String> out = new ArrayList<>();
        out.add(Arrays.toString(ps.executeBatch()));
        try (ResultSet keys = ps.getGeneratedKeys()) {
            ResultSetMetaData md = keys.getMetaData();
            List<String> labels = new ArrayList<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                labels.add(md.getColumnLabel(i));
            }
            out.add(labels.toString());
            out.addAll(PgjdbcParity.rows(keys));
        }
        return out;
    }

    @Test
    void returnGeneratedKeysGivesEveryRowOfTheBatch() throws Exception {
        Object keys = parity.assertSame("RETURN_GENERATED_KEYS", c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO items (code, name) VALUES (?, ?)", Statement.RETURN_GENERATED_KEYS)) {
                List<String> first = batch(ps, "Apple", "Pear", "Plum");
                List<String> second = batch(ps, "Fig");
                return first + " then " + second;
            }
        });
        assertThat(keys.toString())
                .contains("[1, apple, Apple]")
                .contains("[3, plum, Plum]")
                .contains("[4, fig, Fig]");
    }

    @Test
    void namedKeyColumnsGiveThoseColumnsOfEveryRow() throws Exception {
        parity.assertSame("key column names", c -> {
            try (PreparedStatement ps =
                    c.prepareStatement("INSERT INTO named (code, name) VALUES (?, ?)", new String[] {"id"})) {
                return batch(ps, "One", "Two");
            }
        });
    }

    @Test
    void aFailingBatchGivesNoKeys() throws Exception {
        parity.assertSame("batch failing on a duplicate", c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO failing (code, name) VALUES (?, ?)", Statement.RETURN_GENERATED_KEYS)) {
                ps.setString(1, "dup");
                ps.setString(2, "first");
                ps.addBatch();
                ps.setString(1, "dup");
                ps.setString(2, "second");
                ps.addBatch();
                String failure = PgjdbcParity.Observed.of(ps::executeBatch).toString();
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    return failure + " then keys " + keys.next();
                }
            }
        });
    }
}
