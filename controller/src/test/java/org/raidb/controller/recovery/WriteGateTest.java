package org.raidb.controller.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.raidb.controller.transaction.Transaction;
import org.raidb.controller.transaction.WriteUnit;

/** Units of work open and close the gate a joining backend waits at; each is closed by one owner, once. */
class WriteGateTest {
    private final WriteGate gate = new WriteGate();

    @Test
    void aUnitClosedTwiceLeavesTheGateOnce() {
        WriteUnit first = gate.enter();
        WriteUnit second = gate.enter();

        first.close();
        first.close();

        assertThat(gate.openUnits()).isEqualTo(1);
        second.close();
        assertThat(gate.closeAndDrain(0)).as("nothing open any more").isTrue();
    }

    @Test
    void aJoiningBackendDoesNotWaitForeverForAnOpenUnit() {
        WriteUnit open = gate.enter();

        assertThat(gate.closeAndDrain(10)).isFalse();

        open.close();
        assertThat(gate.closeAndDrain(10)).isTrue();
    }

    @Test
    void withoutALogThereIsNoUnitToClose() {
        WriteLog none = WriteLog.none();

        assertThat(none.enterUnit(null)).isSameAs(WriteUnit.NONE);
        Transaction tx = new Transaction(1);
        assertThat(none.enterUnit(tx)).isSameAs(WriteUnit.NONE);
        assertThat(tx.isLogged()).as("nothing logged, so no end to log").isFalse();
    }
}
