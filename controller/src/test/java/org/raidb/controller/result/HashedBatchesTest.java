package org.raidb.controller.result;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.raidb.driver.protocol.ColumnInfo;
import org.raidb.driver.protocol.PayloadWriter;

class HashedBatchesTest {
    private static final ColumnInfo[] COLUMNS = {
        new ColumnInfo(
                "id",
                "id",
                "t",
                "public",
                Types.INTEGER,
                "int4",
                "java.lang.Integer",
                10,
                0,
                11,
                0,
                false,
                true,
                false),
        new ColumnInfo(
                "name",
                "name",
                "t",
                "public",
                Types.VARCHAR,
                "text",
                "java.lang.String",
                0,
                0,
                0,
                1,
                false,
                false,
                true)
    };

    private static List<Object[]> materialized(int count, String changedName, int changedAt) {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            rows.add(new Object[] {i, i == changedAt ? changedName : "row " + i});
        }
        return rows;
    }

    private static HashedBatches rows(int count, String changedName, int changedAt) {
        return new HashedBatches(new MaterializedRows(COLUMNS, materialized(count, changedName, changedAt)));
    }

    private static HashedBatches.Progress readAll(HashedBatches rows, int batchRows) throws SQLException {
        do {
            rows.readBatch(batchRows, Integer.MAX_VALUE);
        } while (!rows.progress().exhausted());
        return rows.progress();
    }

    @Test
    void theHashOfTheRowsDoesNotDependOnWhereBatchesEnd() throws SQLException {
        HashedBatches.Progress inOne = readAll(rows(100, null, 0), 1_000);
        assertThat(readAll(rows(100, null, 0), 7)).isEqualTo(inOne);
        assertThat(readAll(rows(100, null, 0), 1)).isEqualTo(inOne);
        assertThat(inOne.rows()).isEqualTo(100);
    }

    @Test
    void oneDifferentValueChangesTheHashFromItsBatchOn() throws SQLException {
        HashedBatches same = rows(100, null, 0);
        HashedBatches other = rows(100, "changed", 55);
        for (int batch = 1; batch <= 5; batch++) {
            same.readBatch(10, Integer.MAX_VALUE);
            other.readBatch(10, Integer.MAX_VALUE);
            assertThat(other.progress()).isEqualTo(same.progress());
        }
        same.readBatch(10, Integer.MAX_VALUE);
        other.readBatch(10, Integer.MAX_VALUE);
        assertThat(other.progress()).isNotEqualTo(same.progress());
    }

    @Test
    void skippedRowsAreHashedSoThatABackendAskedLateCatchesUp() throws SQLException {
        HashedBatches early = rows(5_000, null, 0);
        for (int batch = 0; batch < 3; batch++) {
            early.readBatch(1_000, Integer.MAX_VALUE);
        }
        early.readBatch(500, Integer.MAX_VALUE);
        HashedBatches late = rows(5_000, null, 0);
        late.skip(3_000);
        late.readBatch(500, Integer.MAX_VALUE);
        assertThat(late.progress()).isEqualTo(early.progress());
        assertThat(late.rowsInBatch()).isEqualTo(500);
    }

    @Test
    void theBufferedBatchIsWhatTheSourceItselfWouldHaveWritten() throws SQLException {
        HashedBatches hashed = rows(30, null, 0);
        hashed.readBatch(20, Integer.MAX_VALUE);
        PayloadWriter copied = new PayloadWriter().clear();
        assertThat(hashed.copyBatchTo(copied)).isFalse();
        PayloadWriter direct = new PayloadWriter().clear();
        new MaterializedRows(COLUMNS, materialized(30, null, 0)).writeBatch(direct, 20, Integer.MAX_VALUE);
        assertThat(copied.written(0, copied.size())).isEqualTo(direct.written(0, direct.size()));
    }
}
