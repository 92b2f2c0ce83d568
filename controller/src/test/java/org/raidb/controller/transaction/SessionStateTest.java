package org.raidb.controller.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a session remembers between requests: when its transaction starts and with which id and
 * isolation, and what each backend connection it borrows is given. No controller and no database: a
 * session, its virtual database's {@link TransactionIds}, and a connection that records what it is told.
 */
class SessionStateTest {
    private final TransactionIds ids = new TransactionIds();
    private final SessionState session = new SessionState(7, "app", ids);

    @Test
    void anAutoCommitSessionHasNoTransactionAndStartsNone() {
        assertThat(session.inTransactionMode()).isFalse();
        assertThat(session.transaction()).isNull();
        assertThat(session.currentTransaction()).isNull();
        assertThat(ids.next()).as("no id was drawn").isEqualTo(1);
    }

    @Test
    void inTransactionModeTheTransactionStartsOnDemandOnceWithAnIdOfTheVirtualDatabase() {
        ids.above(41);
        session.autoCommit(false);
        assertThat(session.currentTransaction()).as("nothing ran yet").isNull();

        Transaction tx = session.transaction();

        assertThat(tx.id()).isEqualTo(42);
        assertThat(session.transaction())
                .as("the same transaction until it ends")
                .isSameAs(tx);
        assertThat(session.currentTransaction()).isSameAs(tx);
        assertThat(tx.isolation()).as("the backends' default").isEqualTo(-1);
        assertThat(tx.modes()).isNull();

        session.endTransaction();
        assertThat(session.currentTransaction()).isNull();
        assertThat(session.inTransactionMode()).as("auto-commit off stays off").isTrue();
        assertThat(session.transaction().id()).as("the next one has a new id").isEqualTo(43);
    }

    @Test
    void sessionsOfOneVirtualDatabaseShareItsIdSpaceAndThoseOfAnotherDoNot() {
        SessionState sameDatabase = new SessionState(8, "app", ids);
        SessionState otherDatabase = new SessionState(9, "app", new TransactionIds());
        session.autoCommit(false);
        sameDatabase.autoCommit(false);
        otherDatabase.autoCommit(false);

        assertThat(session.transaction().id()).isEqualTo(1);
        assertThat(session.nextTransactionId())
                .as("an auto-commit statement's id")
                .isEqualTo(2);
        assertThat(sameDatabase.transaction().id()).isEqualTo(3);
        assertThat(otherDatabase.transaction().id()).isEqualTo(1);
    }

    @Test
    void anExplicitBeginOpensATransactionInAutoCommitThatEndsWithIt() {
        session.beginExplicitTransaction(TransactionModes.ofBegin("BEGIN ISOLATION LEVEL SERIALIZABLE, READ ONLY"));

        assertThat(session.autoCommit()).isTrue();
        assertThat(session.inTransactionMode()).isTrue();
        Transaction tx = session.transaction();
        assertThat(tx.isolation()).isEqualTo(Connection.TRANSACTION_SERIALIZABLE);
        assertThat(tx.modes()).isEqualTo("ISOLATION LEVEL SERIALIZABLE, READ ONLY");

        session.endTransaction();
        assertThat(session.inTransactionMode()).as("back to auto-commit").isFalse();
        assertThat(session.transaction()).isNull();
    }

    @Test
    void aBeginWithoutIsolationTakesTheSessionDefault() {
        session.isolation(Connection.TRANSACTION_REPEATABLE_READ);
        session.beginExplicitTransaction(TransactionModes.ofBegin("BEGIN READ ONLY"));

        assertThat(session.transaction().isolation()).isEqualTo(Connection.TRANSACTION_REPEATABLE_READ);
        assertThat(session.transaction().modes()).isEqualTo("READ ONLY");
    }

    @Test
    void theLaterOfAnIsolationSetBySqlAndOneSetThroughJdbcWins() {
        assertThat(session.defaultIsolation()).isEqualTo(-1);
        session.isolation(Connection.TRANSACTION_READ_COMMITTED);
        session.settings().add("SET search_path TO shop");
        session.settings().add("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL SERIALIZABLE");

        assertThat(session.defaultIsolation()).as("SQL after JDBC").isEqualTo(Connection.TRANSACTION_SERIALIZABLE);
        session.autoCommit(false);
        assertThat(session.transaction().isolation()).isEqualTo(Connection.TRANSACTION_SERIALIZABLE);
        session.endTransaction();

        session.isolation(Connection.TRANSACTION_REPEATABLE_READ);
        assertThat(session.defaultIsolation()).as("JDBC after SQL").isEqualTo(Connection.TRANSACTION_REPEATABLE_READ);
        assertThat(session.settings())
                .as("the SQL default is no longer replayed; other settings are")
                .containsExactly("SET search_path TO shop");
        assertThat(session.transaction().isolation()).isEqualTo(Connection.TRANSACTION_REPEATABLE_READ);
    }

    @Test
    void anEmptyApplicationNameIsNone() {
        session.applicationName("billing");
        assertThat(session.applicationName()).isEqualTo("billing");
        session.applicationName("");
        assertThat(session.applicationName()).isNull();
    }

    @Test
    void aBorrowedConnectionGetsTheSessionsIsolationReadOnlyFlagAndSettingsInOrder() throws Exception {
        session.isolation(Connection.TRANSACTION_SERIALIZABLE);
        session.readOnly(true);
        session.settings().add("SET search_path TO shop");
        session.settings().add("SET statement_timeout = 5000");
        List<String> calls = new ArrayList<>();

        session.prepare(recording(calls));

        assertThat(calls)
                .containsExactly(
                        "setTransactionIsolation 8",
                        "setReadOnly true",
                        "execute SET search_path TO shop",
                        "execute SET statement_timeout = 5000",
                        "close statement");
    }

    @Test
    void aSessionWithNothingSetLeavesTheConnectionAsThePoolGaveIt() throws Exception {
        List<String> calls = new ArrayList<>();
        session.prepare(recording(calls));
        assertThat(calls).isEmpty();
    }

    /** A connection that records what is done to it, and to the statements it creates. */
    private static Connection recording(List<String> calls) {
        Statement statement = proxy(Statement.class, (method, args) -> {
            switch (method) {
                case "execute" -> calls.add("execute " + args[0]);
                case "close" -> calls.add("close statement");
                default -> throw new UnsupportedOperationException(method);
            }
            return false;
        });
        return proxy(Connection.class, (method, args) -> {
            if (method.equals("createStatement") && args == null) {
                return statement;
            }
            if (method.equals("setTransactionIsolation") || method.equals("setReadOnly")) {
                calls.add(method + " " + args[0]);
                return null;
            }
            throw new UnsupportedOperationException(method);
        });
    }

    private interface Calls {
        Object answer(String method, Object[] args);
    }

    private static <T> T proxy(Class<T> type, Calls calls) {
        return type.cast(Proxy.newProxyInstance(
                type.getClassLoader(),
                new Class<?>[] {type},
                (self, method, args) -> calls.answer(method.getName(), args)));
    }

    @Test
    void newIdsAreAboveTheLargestIdTheLogHoldsWhateverTheOrderItIsSeenIn() {
        ids.above(100);
        ids.above(40); // an older entry read after a newer one does not bring the ids back
        assertThat(ids.next()).isEqualTo(101);
        ids.above(100);
        assertThat(ids.next())
                .as("seeding below the ids handed out changes nothing")
                .isEqualTo(102);
        ids.above(500);
        assertThat(ids.next()).isEqualTo(501);
    }
}
