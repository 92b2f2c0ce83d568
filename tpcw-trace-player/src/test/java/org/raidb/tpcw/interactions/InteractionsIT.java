package org.raidb.tpcw.interactions;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.raidb.controller.verification.TableChecksum;
import org.raidb.test.PostgresClusterExtension;
import org.raidb.tpcw.support.TpcwTestDatabases;
import org.raidb.tpcw.trace.RecordingSession;

/** Each interaction, both Best Sellers variants, against a real PostgreSQL: it runs, and writes what it should. */
class InteractionsIT {

    @RegisterExtension
    static PostgresClusterExtension pg = PostgresClusterExtension.servers(1).database("tpcw");

    private static Connection connection;
    private static NewIds ids;

    @BeforeAll
    static void populate() throws Exception {
        TpcwTestDatabases.populate(pg.server(0), TpcwTestDatabases.SMALL, TpcwTestDatabases.SEED);
        connection = pg.server(0).connect();
        ids = NewIds.after(connection);
    }

    @AfterAll
    static void close() throws SQLException {
        connection.close();
    }

    /** Records the SQL the interaction sends, on top of running it. */
    private static final class CountingSession implements SqlSession {
        final SqlSession inner = new RecordingSession(connection, null, 1, System.nanoTime());
        final List<String> statements = new ArrayList<>();

        @Override
        public void interaction(Interaction interaction) {}

        @Override
        public List<Object[]> query(String sql) throws SQLException {
            statements.add(sql);
            return inner.query(sql);
        }

        @Override
        public int update(String sql) throws SQLException {
            statements.add(sql);
            return inner.update(sql);
        }

        @Override
        public void begin() throws SQLException {
            inner.begin();
        }

        @Override
        public void commit() throws SQLException {
            inner.commit();
        }

        @Override
        public void rollback() throws SQLException {
            inner.rollback();
        }
    }

    @ParameterizedTest
    @EnumSource(Interaction.class)
    void interactionRunsAndReadOnlyOnesOnlyRead(Interaction interaction) throws Exception {
        for (BestSellersVariant variant : BestSellersVariant.values()) {
            CountingSession db = new CountingSession();
            EmulatedBrowser browser = new EmulatedBrowser(db, new BrowserState(3, 10, ids, 1, variant), Mix.SHOPPING);

            browser.run(interaction);

            assertThat(db.statements).as(interaction + " sent SQL").isNotEmpty();
            assertThat(connection.getAutoCommit()).as("transaction closed").isTrue();
            if (interaction.isBrowsing() && variant == BestSellersVariant.SUBQUERY) {
                assertThat(db.statements).allMatch(sql -> sql.startsWith("SELECT"));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Interaction.class,
            names = {"CUSTOMER_REGISTRATION", "BUY_CONFIRM", "SHOPPING_CART"})
    void writingInteractionsAddRows(Interaction interaction) throws Exception {
        String table = switch (interaction) {
            case CUSTOMER_REGISTRATION -> "customer";
            case BUY_CONFIRM -> "orders";
            default -> "shopping_cart_line";
        };
        long before = TableChecksum.rowCount(connection, table);
        BrowserState state = new BrowserState(4, 10, ids, 2, BestSellersVariant.SUBQUERY);

        new EmulatedBrowser(new CountingSession(), state, Mix.ORDERING).run(interaction);

        assertThat(TableChecksum.rowCount(connection, table)).isGreaterThan(before);
    }

    @ParameterizedTest
    @EnumSource(value = Interaction.class, names = "ADMIN_CONFIRM")
    void adminConfirmChangesOnlyAnItemOfItsOwnSession(Interaction interaction) throws Exception {
        String before = TableChecksum.checksums(connection).get("item");
        CountingSession db = new CountingSession();

        new EmulatedBrowser(db, new BrowserState(6, 10, ids, 3, BestSellersVariant.SUBQUERY), Mix.BROWSING)
                .run(interaction);

        assertThat(TableChecksum.checksums(connection).get("item")).isNotEqualTo(before);
        String update = db.statements.get(db.statements.size() - 1);
        int item =
                Integer.parseInt(update.substring(update.lastIndexOf('=') + 1).trim());
        assertThat(item % 10).isEqualTo(7); // session 6 (0-based) of 10 owns items 7, 17, 27...
    }
}
