package org.raidb.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import org.junit.jupiter.api.Test;
import org.raidb.driver.protocol.PayloadWriter;
import org.raidb.driver.protocol.Protocol;

/** What a connection remembers to rebuild its session on another controller. */
class SessionMemoryTest {

    private static byte[] bytes(ControllerChannel.Request r) {
        PayloadWriter w = new PayloadWriter();
        r.write(w);
        java.nio.ByteBuffer written = w.written(0, w.size());
        byte[] b = new byte[written.remaining()];
        written.get(b);
        return b;
    }

    @Test
    void requestIdsCountUpWithinTheSessionAndIdsDifferBetweenSessions() {
        SessionMemory m = new SessionMemory(null);
        assertThat(m.nextTag().requestId()).isEqualTo(1);
        assertThat(m.nextTag().requestId()).isEqualTo(2);
        assertThat(new SessionMemory(null).clientSessionId()).isNotEqualTo(m.clientSessionId());
    }

    @Test
    void settingsOfTheSessionAreRestoredButNotThoseOfATransactionRolledBack() {
        SessionMemory m = new SessionMemory("app");
        assertThat(m.restoreRequests()).isEmpty();
        m.statementSucceeded("SET search_path TO other");
        m.statementSucceeded("set local statement_timeout = 5"); // the transaction's only
        m.statementSucceeded("SELECT 1");
        m.autoCommit(false);
        m.isolation(Connection.TRANSACTION_SERIALIZABLE);
        m.readOnly(true);
        m.statementSucceeded("SET work_mem = '8MB'");
        m.transactionEnded(false); // rolled back: the SET is undone, as PostgreSQL undoes it
        m.statementSucceeded("/* why */ RESET timezone");
        m.transactionEnded(true);
        m.applicationName("renamed");
        // auto-commit off, isolation, read-only, two SETs, ApplicationName
        assertThat(m.restoreRequests()).hasSize(6);
        assertThat(m.inTransaction()).isTrue();
    }

    @Test
    void beginAndCommitSentAsSqlOpenAndCloseATransaction() {
        SessionMemory m = new SessionMemory(null);
        assertThat(m.inTransaction()).isFalse();
        m.statementSucceeded("BEGIN");
        assertThat(m.inTransaction()).isTrue();
        m.statementSucceeded("SET datestyle = 'ISO'");
        m.statementSucceeded("ROLLBACK TO SAVEPOINT a");
        assertThat(m.inTransaction()).isTrue();
        m.statementSucceeded("commit");
        assertThat(m.inTransaction()).isFalse();
        assertThat(m.restoreRequests()).hasSize(1);
        m.statementSucceeded("start transaction");
        m.statementSucceeded("rollback");
        assertThat(m.inTransaction()).isFalse();
        assertThat(bytes(m.restoreRequests().get(0))[0]).isEqualTo(Protocol.EXECUTE);
    }
}
