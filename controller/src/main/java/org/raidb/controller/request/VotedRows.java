package org.raidb.controller.request;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.raidb.balancer.CheckedRead;
import org.raidb.balancer.ReadVote;
import org.raidb.balancer.VoteOutcome;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.result.HashedBatches;
import org.raidb.controller.result.RowSource;
import org.raidb.controller.result.Rows;
import org.raidb.driver.protocol.ColumnInfo;
import org.raidb.driver.protocol.PayloadWriter;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.recovery.DisableCause;

/**
 * The rows of an error-checked read, voted on a batch at a time while the client fetches: every
 * backend still in agreement reads its next batch, the batches are compared by the running hash of
 * each backend's rows ({@link HashedBatches}), and the majority's batch goes to the client. So memory
 * holds one batch per backend asked, whatever the size of the result, and a backend whose rows
 * differ near the end of a large result is caught there. The client only ever receives rows a
 * majority agreed on: without a majority it gets {@link CheckedReads#NO_MAJORITY}, mid-stream if
 * that is where the answers part.
 */
final class VotedRows implements RowSource {
    /** What a vote needs from the read it decides. */
    interface Voters {
        /**
         * Starts the read on {@code b}, skips the {@code agreedRows} rows the others already agreed on and
         * reads the batch being voted on. Never throws: an error or a failure is in the answer.
         */
        BackendAnswer ask(DatabaseBackend b, long agreedRows, int maxRows, int maxBytes);

        /** Takes a backend whose answer was closed out of service (outvoted: it diverged; or failed). */
        void disable(DatabaseBackend b, DisableCause cause);

        /** The majority answered with this error: it goes to the client. */
        SQLException majorityError(SQLException e);
    }

    private final CheckedRead<DatabaseBackend> plan;
    private final String sql;
    private final Voters voters;
    private final Executor threads;
    /** The backends still in agreement, and any asked in this round. */
    private final Map<DatabaseBackend, BackendAnswer> answers = new LinkedHashMap<>();
    /** Outvoted or failed: they count as giving no answer in every later round. */
    private final Set<DatabaseBackend> gone = new HashSet<>();
    /** Why the last backend that had no free connection gave no answer: the client's error if that costs the majority. */
    private SQLException busy;

    private long agreedRows;
    private BackendAnswer majority;
    /** The first round was voted on before the client's first fetch: its batch is yet to be sent. */
    private boolean firstBatchPending;

    private boolean closed;

    VotedRows(CheckedRead<DatabaseBackend> plan, String sql, Voters voters, Executor threads) {
        this.plan = plan;
        this.sql = sql;
        this.voters = voters;
        this.threads = threads;
    }

    /**
     * Asks the plan's first backends and votes on their first batch, with the limits the client's first
     * batch will have. The statement's result: these rows, or the majority's whole answer when it is not
     * a single result set. Throws the majority's error, or {@link CheckedReads#NO_MAJORITY}.
     */
    StatementResult start(int maxRows, int maxBytes) throws SQLException {
        try {
            askAll(plan.askFirst(), maxRows, maxBytes);
            BackendAnswer chosen = vote(maxRows, maxBytes);
            if (chosen.rows() != null) {
                firstBatchPending = true;
                return new StatementResult(List.of(new Rows(this)), null);
            }
            answers.remove(chosen.backend());
            close();
            return wholeOrError(chosen);
        } catch (SQLException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private StatementResult wholeOrError(BackendAnswer chosen) throws SQLException {
        if (chosen.error() != null) {
            throw voters.majorityError(chosen.error());
        }
        return chosen.wholeResult();
    }

    @Override
    public ColumnInfo[] columns() {
        return majority.rows().columns();
    }

    @Override
    public boolean writeBatch(PayloadWriter w, int maxRows, int maxBytes) throws SQLException {
        if (!firstBatchPending) {
            readAll(maxRows, maxBytes);
            majority = vote(maxRows, maxBytes);
        }
        firstBatchPending = false;
        if (majority.rows() == null) { // a mid-stream error the majority agrees on
            throw voters.majorityError(
                    majority.error() != null
                            ? majority.error()
                            : new SQLException(
                                    "the backends' answers to [" + sql
                                            + "] stopped being rows mid-stream; run the read again",
                                    SqlStates.INTERNAL_ERROR));
        }
        agreedRows += majority.rows().rowsInBatch();
        return majority.rows().copyBatchTo(w);
    }

    /**
     * Counts the answers of this round, asking other backends while a majority is still possible, and
     * takes the outvoted ones out of service. Returns one answer of the majority.
     */
    private BackendAnswer vote(int maxRows, int maxBytes) throws SQLException {
        while (true) {
            ReadVote<DatabaseBackend, Object> vote = plan.startVote();
            gone.forEach(vote::failed);
            for (BackendAnswer a : answers.values()) {
                vote.answered(a.backend(), a.fingerprint());
            }
            VoteOutcome<DatabaseBackend, Object> outcome = vote.outcome();
            if (outcome instanceof VoteOutcome.AskOthers<DatabaseBackend, Object> more) {
                askAll(more.backends(), maxRows, maxBytes);
            } else if (outcome instanceof VoteOutcome.Majority<DatabaseBackend, Object> m) {
                for (DatabaseBackend outvoted : m.outvoted()) {
                    drop(
                            outvoted,
                            DisableCause.divergence("outvoted on an error-checked read: its answer to [" + sql
                                    + "] differs from "
                                    + m.agreeing().stream()
                                            .map(DatabaseBackend::name)
                                            .toList() + "'s"
                                    + (agreedRows > 0 ? " after row " + agreedRows : "")));
                }
                majority = answers.get(m.agreeing().get(0));
                return majority;
            } else if (busy != null) {
                throw new SQLException(
                        "too few backends could take an error-checked read to outvote a wrong answer: "
                                + busy.getMessage(),
                        busy.getSQLState(),
                        busy);
            } else {
                throw new SQLException(
                        ((VoteOutcome.NoMajority<DatabaseBackend, Object>) outcome).message() + "; statement: " + sql
                                + ". No backend was disabled: compare them (per-table checksums) and restore the wrong ones",
                        CheckedReads.NO_MAJORITY);
            }
        }
    }

    /** Starts the read on these backends at once, caught up with the rows agreed so far. */
    private void askAll(List<DatabaseBackend> backends, int maxRows, int maxBytes) {
        long skip = agreedRows;
        List<CompletableFuture<BackendAnswer>> asked = new ArrayList<>(backends.size());
        for (DatabaseBackend b : backends) {
            asked.add(CompletableFuture.supplyAsync(() -> voters.ask(b, skip, maxRows, maxBytes), threads));
        }
        RuntimeException bug = null;
        for (CompletableFuture<BackendAnswer> a : asked) {
            try {
                BackendAnswer answer = a.join();
                answers.put(answer.backend(), answer);
            } catch (RuntimeException e) {
                bug = e; // after every other answer is kept, so that close() releases them
            }
        }
        if (bug != null) {
            throw bug;
        }
        dropFailed();
    }

    /** Every backend still in agreement reads its next batch, at once. */
    private void readAll(int maxRows, int maxBytes) {
        List<CompletableFuture<Void>> reading = new ArrayList<>(answers.size());
        for (BackendAnswer a : answers.values()) {
            reading.add(CompletableFuture.runAsync(() -> a.readBatch(0, maxRows, maxBytes), threads));
        }
        CompletableFuture.allOf(reading.toArray(new CompletableFuture[0])).join();
        dropFailed();
    }

    private void dropFailed() {
        for (BackendAnswer a : List.copyOf(answers.values())) {
            if (a.failure() != null) {
                drop(
                        a.backend(),
                        DisableCause.failure("read failed: " + a.failure().getMessage()));
            } else if (a.busy() != null) {
                answers.remove(a.backend()).close();
                gone.add(a.backend()); // no answer from it for the rest of this read, but it stays in service
                busy = a.busy();
            }
        }
    }

    /** Closes the backend's answer first, releasing its connection, then takes the backend out of service. */
    private void drop(DatabaseBackend b, DisableCause cause) {
        answers.remove(b).close();
        gone.add(b);
        voters.disable(b, cause);
    }

    @Override
    public long knownRowCount() {
        return -1;
    }

    /** Closes every answer still open: each releases its connection once (an auto-commit read's pool). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (BackendAnswer a : answers.values()) {
            a.close();
        }
        answers.clear();
    }
}
