package org.raidb.controller.request;

import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.analysis.RoutineChange;
import org.raidb.controller.analysis.StatementKind;
import org.raidb.controller.recovery.LoggedStatement;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.transaction.Transaction;
import org.raidb.controller.transaction.TransactionEnd;
import org.raidb.controller.transaction.TransactionModes;

/**
 * Where writes enter the request path, a client's statement and a JDBC batch alike: what must hold
 * before a write runs (no lost advisory locks, no refused volatile trigger), its conflict claims, the
 * catalogues its DDL changes, and a victim's rollback; then the {@link WritePath} runs it.
 */
final class WriteEntry {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(WriteEntry.class);
    private final BackendArray vdb;
    private final BackendConnections connections;
    private final WritePath writes;
    private final DeterministicStatements deterministic;
    private final WriteClaims keys;
    private final AdvisoryLockPath advisoryLocks;
    private final TransactionEnd ends;

    WriteEntry(
            BackendArray vdb,
            BackendConnections connections,
            WritePath writes,
            DeterministicStatements deterministic,
            WriteClaims keys,
            AdvisoryLockPath advisoryLocks,
            TransactionEnd ends) {
        this.vdb = vdb;
        this.connections = connections;
        this.writes = writes;
        this.deterministic = deterministic;
        this.keys = keys;
        this.advisoryLocks = advisoryLocks;
        this.ends = ends;
    }

    /**
     * A client's write statement, or SET/RESET.
     *
     * @param statements the statement as every backend runs it, possibly two (MariaDB's ALTER TABLE in two)
     */
    StatementResult statement(
            SessionState s, AnalyzedStatement a, ExecuteRequest request, List<ExecuteRequest> statements)
            throws SQLException {
        ExecuteRequest r = statements.get(statements.size() - 1);
        boolean setting = a.kind() == StatementKind.SESSION_SETTING;
        // SET and RESET are replayed on each connection a session borrows, not through the log.
        List<LoggedStatement> logged = setting
                ? List.of()
                : statements.stream()
                        .map(x -> new LoggedStatement(x.sql(), x.parameters()))
                        .toList();
        // Remembered before it runs, so that the connections it runs on are reset when given back to the pool.
        List<String> settingsBefore = setting ? List.copyOf(s.settings()) : null;
        if (setting) {
            SettingText.refuseWhatBackendConnectionsCannotTake(SettingText.replayable(r.sql(), r.parameters()));
            rememberSetting(s, r.sql(), r.parameters());
            transactionModes(s, r.sql());
        }
        try {
            return write(Write.statement(s, a, request.sql(), request.parameters(), logged, r.sql(), c -> {
                for (ExecuteRequest before : statements.subList(0, statements.size() - 1)) {
                    connections
                            .runner()
                            .run(c, before, false, () -> {}, s.running()); // MariaDB's ALTER TABLE in two statements
                }
                return connections.runner().run(c, r, false, () -> {}, s.running());
            }));
        } catch (SQLException | RuntimeException e) {
            if (setting) {
                s.settings().clear();
                s.settings().addAll(settingsBefore);
            }
            throw e;
        } finally {
            if (setting || a.kind() == StatementKind.DDL) {
                connections.schemaChanged(); // after it ran: results described before are stale now
            }
        }
    }

    /** Any write, a statement's or a batch's: claims its conflict classes and follows its DDL, then runs it. */
    StatementResult write(Write w) throws SQLException {
        SessionState s = w.session();
        AnalyzedStatement a = w.analysis();
        advisoryLocks.refuseIfLocksLost(s);
        deterministic.refuseIfTriggered(s, a);
        long routinesOwner = a.routineChange() == null ? 0 : functionDdlStarts(s, a.routineChange());
        Set<String> scope = deterministic.schemaScope(w.parts(), w.texts());
        boolean ddl = scope == null || !scope.isEmpty();
        boolean autoCommit = !s.inTransactionMode();
        w.claims(keys.claims(w.parts(), w.parameterRows()));
        try {
            if (ddl) {
                w.work(keys.following(deterministic.followingCatalog(w.work(), scope, s), w.parts(), scope, s));
            }
            StatementResult result = writes.write(w);
            if (autoCommit) {
                s.transactionEnded(null);
            }
            return result;
        } catch (SQLException e) {
            if (ddl) {
                deterministic.ddlFailed(scope, s);
                keys.ddlFailed(w.parts(), scope, s);
            }
            if (autoCommit) {
                s.transactionEnded(e.getSQLState()); // an auto-commit victim's retry keeps its age too
            }
            throw ends.rollBackVictim(s, e);
        } finally {
            if (routinesOwner < 0) {
                // An auto-commit statement: settled once every backend has applied it (or failed it).
                CompletableFuture.allOf(s.lastWrites().values().toArray(new CompletableFuture<?>[0]))
                        .handle((done, failure) -> { // a failed write is answered to its client: settled all the same
                            vdb.functions().settled(routinesOwner);
                            return null;
                        })
                        .exceptionally(e -> {
                            log.error("settling the functions of write #{} failed", routinesOwner, e);
                            return null;
                        });
            }
        }
    }

    /**
     * Function DDL makes its functions possible writers until its transaction has ended everywhere
     * (settled by the transaction's end); returns the transaction's id, or for an auto-commit statement
     * a negative id of its own.
     */
    private long functionDdlStarts(SessionState s, RoutineChange change) throws SQLException {
        Transaction tx = s.transaction();
        long owner = tx != null ? tx.id() : -s.nextTransactionId();
        vdb.functions().changing(owner, change);
        return owner;
    }

    private static void rememberSetting(SessionState s, String sql, List<Object> parameters) throws SQLException {
        String head = sql.trim().toUpperCase(Locale.ROOT);
        if (SettingText.resetsAll(sql)) {
            s.settings().clear();
        } else if (!head.startsWith("SET LOCAL")
                && !head.startsWith("SET TRANSACTION")
                && !head.startsWith("DISCARD")) {
            // SET SESSION CHARACTERISTICS too: replayed, and undone by RESET ALL at give-back. DISCARD PLANS,
            // TEMP or SEQUENCES leave settings as they are.
            SettingText.remember(s.settings(), SettingText.replayable(sql, parameters));
        }
    }

    /** SET TRANSACTION in a transaction: its modes hold for it, on the backends it joins later too. */
    private static void transactionModes(SessionState s, String sql) {
        String modes = TransactionModes.ofSetTransaction(sql);
        Transaction tx = modes == null ? null : s.transaction();
        if (tx != null) {
            tx.modes(modes, TransactionModes.isolationOf(modes));
        }
    }
}
