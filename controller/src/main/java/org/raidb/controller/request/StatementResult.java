package org.raidb.controller.request;

import java.sql.SQLWarning;
import java.util.List;
import org.raidb.controller.result.Result;
import org.raidb.controller.result.RowSource;

/**
 * What one statement produced on one backend, in order: update counts and result sets.
 *
 * @param generatedKeys null when the client did not ask for keys
 * @param warnings what the backend reported while running it (notices, warnings), null for none: the
 *     client gets those of the backend whose answer it gets
 */
public record StatementResult(List<Result> results, RowSource generatedKeys, SQLWarning warnings) {

    public StatementResult(List<Result> results, RowSource generatedKeys) {
        this(results, generatedKeys, null);
    }

    /** Closes every row source not yet handed to a client (results of the backends whose answer is not used). */
    public void discard() {
        results.forEach(Result::discard);
        if (generatedKeys != null) {
            generatedKeys.close();
        }
    }

    /** The rows when the statement produced a single result set, else null. */
    public RowSource singleRows() {
        return results.size() == 1 ? results.get(0).map(count -> null, rows -> rows) : null;
    }

    /** A single result set left open on its backend as a cursor: the connection stays in use until it is closed. */
    public boolean isCursor() {
        RowSource rows = singleRows();
        return rows != null && rows.knownRowCount() < 0;
    }

    /** The counts of a batch, which returns nothing else (a driver refuses a batch statement that returns rows). */
    public long[] updateCounts() {
        long[] counts = new long[results.size()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = results.get(i).map(count -> count, rows -> {
                throw new IllegalStateException("a batch returned rows");
            });
        }
        return counts;
    }

    /**
     * What must agree between backends for them to be called identical after this statement:
     * update counts and the number of rows returned.
     */
    public String signature() {
        StringBuilder sb = new StringBuilder();
        for (Result r : results) {
            sb.append(r.signature()).append("; ");
        }
        return sb.toString();
    }
}
