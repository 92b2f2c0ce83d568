package org.raidb.recovery;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One entry of the recovery log.
 *
 * <p>{@code position} is the entry's place in the virtual database's write order. The log assigns
 * it (callers build entries with {@link #UNASSIGNED}); positions are gap-free and never reused.
 * {@code transactionId} is 0 for an auto-commit write. For the savepoint kinds {@code sql} holds the
 * savepoint name. {@code parameters} holds the value types {@link ParameterCodec} can store;
 * elements may not be Java {@code null} (use {@link org.raidb.driver.protocol.SqlNull}).
 */
public record LogEntry(
        long position,
        EntryKind kind,
        long transactionId,
        String login,
        String sql,
        List<Object> parameters,
        List<String> tablesWritten,
        Outcome outcome,
        Instant loggedAt) {

    public static final long UNASSIGNED = -1;

    public LogEntry {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(login, "login");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(loggedAt, "loggedAt");
        parameters = parameters == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(parameters));
        tablesWritten = tablesWritten == null ? List.of() : List.copyOf(tablesWritten);
        if (kind == EntryKind.AUTOCOMMIT_WRITE && transactionId != 0) {
            throw new IllegalArgumentException("an AUTOCOMMIT_WRITE has transaction id 0, not " + transactionId);
        }
        if (transactionId == 0 && kind != EntryKind.AUTOCOMMIT_WRITE && kind != EntryKind.DDL) {
            throw new IllegalArgumentException(
                    kind + " needs a transaction id (only auto-commit writes and DDL use 0)");
        }
    }

    public static LogEntry begin(long transactionId, String login) {
        return of(EntryKind.BEGIN, transactionId, login, null, List.of(), List.of());
    }

    public static LogEntry write(
            long transactionId, String login, String sql, List<Object> parameters, List<String> tables) {
        return of(EntryKind.WRITE, transactionId, login, sql, parameters, tables);
    }

    public static LogEntry autoCommitWrite(String login, String sql, List<Object> parameters, List<String> tables) {
        return of(EntryKind.AUTOCOMMIT_WRITE, 0, login, sql, parameters, tables);
    }

    /** DDL, in a transaction ({@code transactionId > 0}) or on its own (0). */
    public static LogEntry ddl(long transactionId, String login, String sql, List<String> tables) {
        return of(EntryKind.DDL, transactionId, login, sql, List.of(), tables);
    }

    public static LogEntry commit(long transactionId, String login) {
        return of(EntryKind.COMMIT, transactionId, login, null, List.of(), List.of());
    }

    public static LogEntry rollback(long transactionId, String login) {
        return of(EntryKind.ROLLBACK, transactionId, login, null, List.of(), List.of());
    }

    public static LogEntry savepoint(long transactionId, String login, String name) {
        return of(EntryKind.SAVEPOINT, transactionId, login, name, List.of(), List.of());
    }

    public static LogEntry rollbackToSavepoint(long transactionId, String login, String name) {
        return of(EntryKind.ROLLBACK_TO_SAVEPOINT, transactionId, login, name, List.of(), List.of());
    }

    public static LogEntry releaseSavepoint(long transactionId, String login, String name) {
        return of(EntryKind.RELEASE_SAVEPOINT, transactionId, login, name, List.of(), List.of());
    }

    private static LogEntry of(
            EntryKind kind, long tx, String login, String sql, List<Object> params, List<String> tables) {
        return new LogEntry(
                UNASSIGNED,
                kind,
                tx,
                login,
                sql,
                params,
                tables,
                Outcome.PENDING,
                Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
    }

    public LogEntry withOutcome(Outcome newOutcome) {
        return new LogEntry(position, kind, transactionId, login, sql, parameters, tablesWritten, newOutcome, loggedAt);
    }

    LogEntry withPosition(long newPosition) {
        return new LogEntry(newPosition, kind, transactionId, login, sql, parameters, tablesWritten, outcome, loggedAt);
    }

    /** Savepoint name, for the savepoint kinds. */
    public String savepointName() {
        return kind.isSavepoint() ? sql : null;
    }
}
