package org.raidb.controller.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import org.junit.jupiter.api.Test;

class TransactionModesTest {

    @Test
    void beginKeepsItsModesForSetTransaction() {
        assertThat(TransactionModes.ofBegin("BEGIN ISOLATION LEVEL REPEATABLE READ"))
                .isEqualTo("ISOLATION LEVEL REPEATABLE READ");
        assertThat(TransactionModes.ofBegin("  begin transaction isolation level serializable, read only;"))
                .isEqualTo("isolation level serializable, read only");
        assertThat(TransactionModes.ofBegin(
                        "START TRANSACTION READ WRITE ISOLATION LEVEL READ COMMITTED NOT DEFERRABLE"))
                .isEqualTo("READ WRITE ISOLATION LEVEL READ COMMITTED NOT DEFERRABLE");
        assertThat(TransactionModes.ofBegin("/* app */ BEGIN WORK ISOLATION LEVEL SERIALIZABLE"))
                .isEqualTo("ISOLATION LEVEL SERIALIZABLE");
    }

    @Test
    void beginWithoutModesOrWithOthersHasNone() {
        assertThat(TransactionModes.ofBegin("BEGIN")).isNull();
        assertThat(TransactionModes.ofBegin("START TRANSACTION")).isNull();
        assertThat(TransactionModes.ofBegin("START TRANSACTION WITH CONSISTENT SNAPSHOT"))
                .isNull();
        assertThat(TransactionModes.ofBegin("BEGIN ISOLATION LEVEL SERIALIZABLE; DROP TABLE t"))
                .isNull();
    }

    @Test
    void setTransactionNamesItsModes() {
        assertThat(TransactionModes.ofSetTransaction("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE"))
                .isEqualTo("ISOLATION LEVEL SERIALIZABLE");
        assertThat(TransactionModes.ofSetTransaction("SET TRANSACTION SNAPSHOT '00000003-0000001B-1'"))
                .isNull();
        assertThat(TransactionModes.ofSetTransaction("SET search_path = app")).isNull();
    }

    @Test
    void isolationIsTheLastLevelTheModesName() {
        assertThat(TransactionModes.isolationOf("ISOLATION LEVEL REPEATABLE READ, READ ONLY"))
                .isEqualTo(Connection.TRANSACTION_REPEATABLE_READ);
        assertThat(TransactionModes.isolationOf("isolation  level read\tuncommitted"))
                .isEqualTo(Connection.TRANSACTION_READ_UNCOMMITTED);
        assertThat(TransactionModes.isolationOf("READ ONLY")).isEqualTo(-1);
        assertThat(TransactionModes.isolationOf(null)).isEqualTo(-1);
    }

    @Test
    void sessionDefaultsAreReadFromEachSpelling() {
        assertThat(TransactionModes.sessionDefault(
                        "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL SERIALIZABLE"))
                .isEqualTo(Connection.TRANSACTION_SERIALIZABLE);
        assertThat(TransactionModes.sessionDefault("SET default_transaction_isolation = 'repeatable read'"))
                .isEqualTo(Connection.TRANSACTION_REPEATABLE_READ);
        assertThat(TransactionModes.sessionDefault("set session default_transaction_isolation to \"read committed\""))
                .isEqualTo(Connection.TRANSACTION_READ_COMMITTED);
        assertThat(TransactionModes.sessionDefault("SET default_transaction_isolation TO DEFAULT"))
                .isEqualTo(-1);
        assertThat(TransactionModes.sessionDefault("SET @@SESSION.transaction_isolation = 'REPEATABLE-READ'"))
                .isEqualTo(Connection.TRANSACTION_REPEATABLE_READ);
        assertThat(TransactionModes.sessionDefault("SET tx_isolation='READ-COMMITTED'"))
                .isEqualTo(Connection.TRANSACTION_READ_COMMITTED);
    }

    @Test
    void otherSettingsAreNotIsolationDefaults() {
        assertThat(TransactionModes.sessionDefault("SET search_path = app")).isEqualTo(TransactionModes.NOT_ISOLATION);
        assertThat(TransactionModes.sessionDefault("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY"))
                .isEqualTo(TransactionModes.NOT_ISOLATION);
        assertThat(TransactionModes.sessionDefault("SET default_transaction_isolation = 'bogus'"))
                .isEqualTo(TransactionModes.NOT_ISOLATION);
        assertThat(TransactionModes.sessionDefault("SET default_transaction_read_only = on"))
                .isEqualTo(TransactionModes.NOT_ISOLATION);
    }

    @Test
    void oneSnapshotAtRepeatableReadAndSerializableOnly() {
        int rc = Connection.TRANSACTION_READ_COMMITTED;
        int rr = Connection.TRANSACTION_REPEATABLE_READ;
        assertThat(TransactionModes.keepsOneSnapshot(rr, rc)).isTrue();
        assertThat(TransactionModes.keepsOneSnapshot(Connection.TRANSACTION_SERIALIZABLE, rc))
                .isTrue();
        assertThat(TransactionModes.keepsOneSnapshot(rc, rr)).isFalse();
        assertThat(TransactionModes.keepsOneSnapshot(-1, rc))
                .as("PostgreSQL's default")
                .isFalse();
        assertThat(TransactionModes.keepsOneSnapshot(-1, rr))
                .as("InnoDB's default")
                .isTrue();
    }
}
