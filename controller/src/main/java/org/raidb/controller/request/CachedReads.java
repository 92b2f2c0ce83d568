package org.raidb.controller.request;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.analysis.ReadColumns;
import org.raidb.controller.cache.CacheKey;
import org.raidb.controller.cache.CachedResult;
import org.raidb.controller.cache.ReadVersions;
import org.raidb.controller.cache.ResultCache;
import org.raidb.controller.determinism.NonDeterministicCalls;
import org.raidb.controller.result.BackendCursor;
import org.raidb.controller.result.MaterializedRows;
import org.raidb.controller.result.PrefixedRows;
import org.raidb.controller.result.RowSource;
import org.raidb.controller.result.Rows;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.transaction.Transaction;

/**
 * Step 5 of the request path: a read answered from the {@link ResultCache} when it holds a fresh
 * result, else read by {@link ReadPath} and, when it may be shared, held for the next one.
 *
 * <p>Never cached: reads in a transaction that wrote (they see its uncommitted rows) or that keeps one
 * snapshot (REPEATABLE READ, SERIALIZABLE: the cache may be newer than it), non-deterministic reads
 * (now(), random(), …), reads of the catalogue or of temporary tables, reads of views or of any relation the
 * backends' catalogue does not list as a table ({@link CatalogWriteEffects}), reads calling functions the
 * analyser does not know to read nothing else, reads whose tables it cannot name, and results over
 * maxBytes. SELECT … FOR UPDATE/SHARE and nextval() are writes and never come here.
 */
final class CachedReads {
    private final BackendArray vdb;
    private final ReadPath reads;

    CachedReads(BackendArray vdb, ReadPath reads) {
        this.vdb = vdb;
        this.reads = reads;
    }

    StatementResult read(SessionState s, AnalyzedStatement a, ExecuteRequest original, ExecuteRequest r)
            throws SQLException {
        ResultCache cache = vdb.resultCache();
        if (!cache.enabled()) {
            return reads.read(s, a, r);
        }
        ReadColumns columns = cacheable(s, a, original) ? vdb.analyzer().readColumns(original.sql()) : null;
        if (columns == null || !columns.cacheable()) {
            cache.bypassed();
            return reads.read(s, a, r);
        }
        CacheKey key = CacheKey.of(
                original.sql(),
                original.parameters(),
                s.virtualUser(),
                s.settings(),
                original.maxRows(),
                original.escapeProcessing());
        CachedResult hit = cache.lookup(key);
        if (hit != null) {
            return new StatementResult(List.of(new Rows(new MaterializedRows(hit.columns(), hit.rows()))), null);
        }
        // Taken before the read runs: a write that starts after this makes what it reads stale.
        ReadVersions versions = cache.versionsFor(a.tablesRead(), columns);
        StatementResult result = reads.read(s, a, r);
        if (versions == null || result.warnings() != null || result.generatedKeys() != null) {
            return result;
        }
        RowSource rows = result.singleRows();
        if (rows instanceof MaterializedRows m) {
            long bytes = weight(m.rows());
            cache.store(key, m.columns(), m.rows(), bytes, versions);
            return result;
        }
        if (rows instanceof BackendCursor cursor) {
            return held(cache, key, versions, cursor);
        }
        return result;
    }

    /** Reads the cursor into memory up to maxBytes: all of it is held and served; beyond, the rows read and the rest stream on. */
    private static StatementResult held(ResultCache cache, CacheKey key, ReadVersions versions, BackendCursor cursor)
            throws SQLException {
        List<Object[]> read = new ArrayList<>();
        long bytes = 0;
        try {
            for (Object[] row = cursor.nextRow(); row != null; row = cursor.nextRow()) {
                read.add(row);
                bytes += weight(row);
                if (bytes > cache.maxBytes()) {
                    return new StatementResult(List.of(new Rows(new PrefixedRows(read, cursor))), null);
                }
            }
        } catch (SQLException | RuntimeException e) {
            cursor.close();
            throw e;
        }
        cursor.close(); // the connection goes back to its pool now, not when the client has fetched
        cache.store(key, cursor.columns(), read, bytes, versions);
        return new StatementResult(List.of(new Rows(new MaterializedRows(cursor.columns(), read))), null);
    }

    private boolean cacheable(SessionState s, AnalyzedStatement a, ExecuteRequest r) throws SQLException {
        if (a.touchesEverything() || a.tablesRead().isEmpty() || r.returnGeneratedKeys() || r.call()) {
            return false;
        }
        if (s.inTransactionMode()) {
            Transaction tx = s.transaction();
            if (tx.hasWritten() || SnapshotReads.keepsOneSnapshot(vdb, tx)) {
                return false;
            }
        }
        for (String t : a.tablesRead()) {
            String table = t.toLowerCase(Locale.ROOT);
            if (table.startsWith("pg_")
                    || table.contains(".pg_")
                    || table.startsWith("information_schema.")
                    || table.startsWith("pg_catalog.")) {
                return false; // the catalogue changes with DDL the cache does not follow table by table
            }
        }
        return !a.nonDeterministic()
                && !NonDeterministicCalls.mayContain(r.sql())
                && !vdb.resultCache().readsTemporaryTable(a.tablesRead())
                && CatalogWriteEffects.cacheable(a.tablesRead(), vdb.keys());
    }

    private static long weight(List<Object[]> rows) {
        long bytes = 0;
        for (Object[] row : rows) {
            bytes += weight(row);
        }
        return bytes;
    }

    /** What a row costs in memory, roughly: headers and references, plus the contents of strings and byte arrays. */
    private static long weight(Object[] row) {
        long bytes = 16 + 8L * row.length;
        for (Object v : row) {
            if (v == null) {
                continue;
            }
            if (v instanceof String str) {
                bytes += 40 + 2L * str.length();
            } else if (v instanceof byte[] b) {
                bytes += 16 + b.length;
            } else if (v instanceof BigDecimal d) {
                bytes += 48 + d.precision() / 2;
            } else {
                bytes += 24;
            }
        }
        return bytes;
    }
}
