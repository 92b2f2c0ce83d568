package org.raidb.controller.session;

import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.raidb.controller.request.StatementResult;
import org.raidb.controller.result.MaterializedRows;
import org.raidb.controller.result.Result;
import org.raidb.controller.result.RowSource;
import org.raidb.controller.result.Rows;
import org.raidb.controller.result.UpdateCount;
import org.raidb.driver.protocol.ColumnInfo;
import org.raidb.driver.protocol.RowsetCodec;

/**
 * What a client was (or would have been) answered to one request that may have written: kept by {@link
 * RecentOutcomes} so that the same request sent again after its controller failed gets this answer instead
 * of running twice. Small by construction: update counts, at most {@link #MAX_ROWS} rows of generated keys
 * or RETURNING values, or the error's SQLState, message and vendor code (not its backend objects).
 *
 * @param results each an update count ({@link Long}) or a complete rowset ({@link RowsetCodec.Rowset}), in order
 * @param generatedKeys the keys, or null when the client did not ask for them
 * @param failure the error answered instead, or null; a {@link BatchUpdateException} keeps its counts
 */
public record RequestOutcome(List<Object> results, RowsetCodec.Rowset generatedKeys, SQLException failure) {
    /** Rows an outcome may hold, all rowsets together: beyond that, a request is not remembered. */
    public static final int MAX_ROWS = 1000;

    /** The outcome of a transaction command (commit, rollback, auto-commit on) that succeeded: an OK. */
    public static RequestOutcome ok() {
        return new RequestOutcome(List.of(), null, null);
    }

    /** The update counts of a statement or batch, without generated keys. */
    public static RequestOutcome updateCounts(long... counts) {
        List<Object> results = new ArrayList<>(counts.length);
        for (long c : counts) {
            results.add(c);
        }
        return new RequestOutcome(List.copyOf(results), null, null);
    }

    /**
     * The error answered: a copy that holds no backend objects (its cause and stack are dropped), a batch's
     * counts kept.
     */
    public static RequestOutcome failed(SQLException e) {
        SQLException kept = e instanceof BatchUpdateException b && b.getLargeUpdateCounts() != null
                ? new BatchUpdateException(
                        e.getMessage(),
                        e.getSQLState(),
                        e.getErrorCode(),
                        b.getLargeUpdateCounts().clone(),
                        null)
                : new SQLException(e.getMessage(), e.getSQLState(), e.getErrorCode());
        return new RequestOutcome(List.of(), null, kept);
    }

    /**
     * The answer a result stands for, when it can be kept: every rowset in it (RETURNING values, generated
     * keys) is held in memory and, all together, of at most {@link #MAX_ROWS} rows. A result streamed from a
     * backend cursor (a read) is not kept: reading again is harmless. Reads nothing from {@code result},
     * which is still to be sent.
     */
    public static Optional<RequestOutcome> of(StatementResult result) {
        int[] rowBudget = {MAX_ROWS};
        List<Object> results = new ArrayList<>(result.results().size());
        for (Result r : result.results()) {
            if (r instanceof UpdateCount count) {
                results.add(count.count());
            } else if (r instanceof Rows rows) {
                RowsetCodec.Rowset kept = rowset(rows.source(), rowBudget);
                if (kept == null) {
                    return Optional.empty();
                }
                results.add(kept);
            }
        }
        RowsetCodec.Rowset keys = null;
        if (result.generatedKeys() != null) {
            keys = rowset(result.generatedKeys(), rowBudget);
            if (keys == null) {
                return Optional.empty();
            }
        }
        return Optional.of(new RequestOutcome(List.copyOf(results), keys, null));
    }

    /** The rows as a complete rowset, or null when they are not in memory or exceed the budget left. */
    private static RowsetCodec.Rowset rowset(RowSource source, int[] rowBudget) {
        if (!(source instanceof MaterializedRows m) || m.rows().size() > rowBudget[0]) {
            return null;
        }
        rowBudget[0] -= m.rows().size();
        List<Object[]> rows = new ArrayList<>(m.rows().size());
        for (Object[] row : m.rows()) {
            rows.add(row.clone());
        }
        List<ColumnInfo> columns = List.copyOf(Arrays.asList(m.columns()));
        return new RowsetCodec.Rowset(new RowsetCodec.Header(0, columns), new RowsetCodec.Batch(rows, true));
    }

    /** The update counts, as BATCH_RESULT carries them. */
    public long[] counts() {
        return results.stream()
                .filter(Long.class::isInstance)
                .mapToLong(Long.class::cast)
                .toArray();
    }

    /** The rows it holds, all rowsets and the keys together: what {@link RecentOutcomes} counts against its cap. */
    public int rowCount() {
        int n = generatedKeys == null ? 0 : generatedKeys.firstBatch().rows().size();
        for (Object r : results) {
            if (r instanceof RowsetCodec.Rowset rows) {
                n += rows.firstBatch().rows().size();
            }
        }
        return n;
    }

    /** Whether a result of it is rows (RETURNING values, or a read's rows), besides any generated keys. */
    public boolean holdsRows() {
        return results.stream().anyMatch(RowsetCodec.Rowset.class::isInstance);
    }

    public boolean succeeded() {
        return failure == null;
    }
}
