package org.raidb.driver;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.raidb.driver.protocol.BatchResultFrame;
import org.raidb.driver.protocol.CloseCursorFrame;
import org.raidb.driver.protocol.FetchFrame;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.ResultsFrame;
import org.raidb.driver.protocol.RowsFrame;
import org.raidb.driver.protocol.RowsetCodec;

/**
 * The requests of the open transaction and what the client was answered, kept so that the transaction can
 * be run again on another controller when its controller fails: statements and batches with their update
 * counts and a digest of the rows the client received ({@link RowsDigest}), savepoint commands, and the
 * errors answered (a replay must meet them again). Emptied when the transaction ends.
 *
 * <p>A replay succeeds when every request gets the answer the client already has; then the client never
 * learns that its controller failed. Otherwise the transaction is lost: what the client read (and decided
 * on) is no longer what the database holds.
 *
 * <p>Bounded: a transaction of more than {@value #MAX_WEIGHT} requests and batch rows is no longer kept (it
 * holds its requests' parameters in memory); it cannot be replayed, and a failover loses it.
 */
final class TransactionJournal {
    /** Requests, plus the rows or statements of each batch, that a journal keeps at most. */
    static final int MAX_WEIGHT = 100_000;

    /** Requests and answers on the new controller during a replay; an ERROR answer is thrown as its SQLException. */
    interface Wire {
        <T> T call(ControllerChannel.Request request, ControllerChannel.Response<T> response)
                throws IOException, SQLException;
    }

    private interface Expected {
        /** Sends the request again; null when the answer is the one the client got, else what differs. */
        String check(Wire wire, ControllerChannel.Request request) throws IOException;
    }

    private record Entry(String what, ControllerChannel.Request request, Expected expected) {}

    private final List<Entry> entries = new ArrayList<>();
    private long weight;
    private boolean overflowed;

    /**
     * A statement answered with RESULTS. Returns, per result, the digest its result set must feed with the
     * batches it fetches later (null for an update count).
     */
    synchronized List<RowsDigest> executed(String what, ControllerChannel.Request request, ResultsFrame answer) {
        List<Object> items = new ArrayList<>(answer.results().size());
        List<RowsDigest> digests = new ArrayList<>(answer.results().size());
        for (Object result : answer.results()) {
            if (result instanceof RowsetCodec.Rowset rowset) {
                RowsDigest d = new RowsDigest();
                d.add(rowset.firstBatch().rows(), complete(rowset));
                items.add(d);
                digests.add(d);
            } else {
                items.add(result);
                digests.add(null);
            }
        }
        RowsDigest keys = answer.generatedKeys() == null
                ? null
                : RowsDigest.ofComplete(answer.generatedKeys().firstBatch().rows());
        add(new Entry(what, request, new Results(items, keys)), 1);
        return digests;
    }

    /** A batch answered with its counts (and keys). */
    synchronized void batched(String what, ControllerChannel.Request request, BatchResultFrame answer) {
        RowsDigest keys = answer.generatedKeys() == null
                ? null
                : RowsDigest.ofComplete(answer.generatedKeys().firstBatch().rows());
        List<Long> counts = new ArrayList<>(answer.counts().length);
        for (long c : answer.counts()) {
            counts.add(c);
        }
        add(new Entry(what, request, new Counts(counts, keys)), 1 + counts.size());
    }

    /** A request answered OK (a savepoint command). */
    synchronized void answeredOk(String what, ControllerChannel.Request request) {
        add(new Entry(what, request, new Ok()), 1);
    }

    /** A request answered with an error: inside a transaction that matters (PostgreSQL aborts it). */
    synchronized void refused(String what, ControllerChannel.Request request, SQLException e) {
        add(new Entry(what, request, new Refused(e.getSQLState())), 1);
    }

    private void add(Entry e, int entryWeight) {
        weight += entryWeight;
        if (weight > MAX_WEIGHT) {
            overflowed = true;
            entries.clear(); // not replayable any more: nothing to keep
            return;
        }
        entries.add(e);
    }

    synchronized void clear() {
        entries.clear();
        weight = 0;
        overflowed = false;
    }

    synchronized int size() {
        return entries.size();
    }

    /** The statement whose result set was still being read, or null: its cursor died with the controller. */
    synchronized String resultStillRead() {
        for (Entry e : entries) {
            if (e.expected() instanceof Results r
                    && r.items().stream().anyMatch(i -> i instanceof RowsDigest d && d.open())) {
                return e.what();
            }
        }
        return null;
    }

    /**
     * Sends every request again, in order, and compares each answer with the one the client got. Returns
     * null when they all match, else why the transaction cannot go on. I/O failures of the new controller
     * propagate (the caller moves on to another).
     */
    synchronized String replay(Wire wire) throws IOException {
        if (overflowed) {
            return "it made more than " + MAX_WEIGHT
                    + " requests and batch rows, more than the driver keeps to replay a transaction";
        }
        int n = 0;
        for (Entry e : entries) {
            n++;
            String difference = e.expected().check(wire, e.request());
            if (difference != null) {
                return "request " + n + " of " + entries.size() + " (" + e.what() + "): " + difference;
            }
        }
        return null;
    }

    private static boolean complete(RowsetCodec.Rowset rowset) {
        return rowset.firstBatch().last() || rowset.header().cursorId() == 0;
    }

    /** The answer to a request that had succeeded: its frame, or what the error now met says. */
    private record Answer<T>(T frame, String failure) {}

    private static <T> Answer<T> send(
            Wire wire, ControllerChannel.Request request, byte type, ControllerChannel.Response<T> read)
            throws IOException {
        try {
            return new Answer<>(
                    wire.call(request, r -> {
                        ControllerChannel.expect(r, type);
                        return read.read(r);
                    }),
                    null);
        } catch (SQLException e) {
            return new Answer<>(
                    null, "it now fails with " + e.getSQLState() + " (" + e.getMessage() + ") where it had succeeded");
        }
    }

    /** EXECUTE: the update counts and the rows of each result, and the generated keys. */
    private record Results(List<Object> items, RowsDigest keys) implements Expected {
        @Override
        public String check(Wire wire, ControllerChannel.Request request) throws IOException {
            Answer<ResultsFrame> answer = send(wire, request, Protocol.RESULTS, ResultsFrame::read);
            if (answer.failure() != null) {
                return answer.failure();
            }
            ResultsFrame got = answer.frame();
            String difference = null;
            if (got.results().size() != items.size()) {
                difference = "it now gives " + got.results().size() + " result(s) instead of " + items.size();
            }
            for (int i = 0; i < got.results().size(); i++) {
                Object now = got.results().get(i);
                Object then = i < items.size() ? items.get(i) : null;
                String d = compare(wire, then, now);
                if (difference == null) {
                    difference = d;
                }
            }
            if (difference == null) {
                difference = compareKeys(keys, got.generatedKeys());
            }
            return difference;
        }

        /** Compares one result; a rowset read again is always read or closed, so no cursor stays open. */
        private static String compare(Wire wire, Object then, Object now) throws IOException {
            if (now instanceof RowsetCodec.Rowset rowset) {
                RowsDigest expected = then instanceof RowsDigest d ? d : null;
                RowsDigest replayed = readAgain(wire, rowset, expected);
                if (expected == null) {
                    return "it now gives rows where it gave an update count";
                }
                return expected.sameAs(replayed) ? null : expected.describeDifference(replayed);
            }
            if (!(then instanceof Long)) {
                return "it now gives an update count where it gave rows";
            }
            return then.equals(now) ? null : "its update count was " + then + " and would now be " + now;
        }
    }

    /**
     * Reads a result again, as many rows as the client received (one more when it read to the end, to see
     * whether the result has grown), and closes its cursor if rows are left.
     */
    static RowsDigest readAgain(Wire wire, RowsetCodec.Rowset rowset, RowsDigest expected) throws IOException {
        long wanted = expected == null ? 0 : expected.rows();
        boolean toTheEnd = expected != null && expected.exhausted();
        RowsDigest replayed = new RowsDigest();
        long cursorId = rowset.header().cursorId();
        RowsetCodec.Batch batch = rowset.firstBatch();
        boolean last = complete(rowset);
        while (true) {
            List<Object[]> rows = batch.rows();
            int take = (int) Math.min(rows.size(), wanted - replayed.rows());
            boolean beyond = take < rows.size();
            replayed.add(rows.subList(0, take), last && !beyond);
            if (beyond || last || (replayed.rows() >= wanted && !toTheEnd)) {
                break;
            }
            try {
                batch = wire.call(new FetchFrame(cursorId, Protocol.DEFAULT_FETCH_SIZE)::write, r -> {
                    ControllerChannel.expect(r, Protocol.ROWS);
                    return RowsFrame.read(r, rowset.header().columnCount());
                });
            } catch (SQLException e) {
                return replayed; // the cursor is gone: what was read so far is all there is to compare
            }
            last = batch.last();
        }
        if (!last) {
            try {
                wire.call(new CloseCursorFrame(cursorId)::write, r -> {
                    ControllerChannel.expect(r, Protocol.OK);
                    return null;
                });
            } catch (SQLException e) {
                // the replay is over either way; the transaction's end closes what is left
            }
        }
        return replayed;
    }

    private static String compareKeys(RowsDigest keys, RowsetCodec.Rowset got) {
        if ((keys == null) != (got == null)) {
            return "its generated keys differ";
        }
        if (keys == null) {
            return null;
        }
        RowsDigest now = RowsDigest.ofComplete(got.firstBatch().rows());
        return keys.sameAs(now) ? null : "its generated keys differ (" + keys.describeDifference(now) + ")";
    }

    /** BATCH: the update counts and the generated keys. */
    private record Counts(List<Long> counts, RowsDigest keys) implements Expected {
        @Override
        public String check(Wire wire, ControllerChannel.Request request) throws IOException {
            Answer<BatchResultFrame> answer = send(wire, request, Protocol.BATCH_RESULT, BatchResultFrame::read);
            if (answer.failure() != null) {
                return answer.failure();
            }
            BatchResultFrame got = answer.frame();
            List<Long> now = new ArrayList<>(got.counts().length);
            for (long c : got.counts()) {
                now.add(c);
            }
            if (!now.equals(counts)) {
                return "its update counts were " + counts + " and would now be " + now;
            }
            return compareKeys(keys, got.generatedKeys());
        }
    }

    /** A command answered OK. */
    private record Ok() implements Expected {
        @Override
        public String check(Wire wire, ControllerChannel.Request request) throws IOException {
            return send(wire, request, Protocol.OK, r -> Boolean.TRUE).failure();
        }
    }

    /** A request answered with an error: the replay must meet the same error. */
    private record Refused(String sqlState) implements Expected {
        @Override
        public String check(Wire wire, ControllerChannel.Request request) throws IOException {
            try {
                Object answer = wire.call(request, r -> r.type() == Protocol.RESULTS ? ResultsFrame.read(r) : null);
                if (answer instanceof ResultsFrame results
                        && results.results().size() == 1
                        && results.results().get(0) instanceof RowsetCodec.Rowset rowset) {
                    readAgain(wire, rowset, null); // closes its cursor
                }
                return "it now succeeds where it had failed with " + sqlState;
            } catch (SQLException e) {
                return java.util.Objects.equals(sqlState, e.getSQLState())
                        ? null
                        : "it now fails with " + e.getSQLState() + " where it had failed with " + sqlState;
            }
        }
    }
}
