package org.raidb.controller.analysis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.raidb.controller.determinism.TextSpan;

/**
 * The analysis of a text holding several statements, from the analyses of its statements: every
 * backend runs the whole text, so it is a write if any statement writes, it uses the union of their
 * tables, and it touches everything if any of them does. Transaction control and session settings
 * inside such a text are refused: the controller keeps both itself, one statement at a time.
 */
final class MultiStatement {
    static final String TRANSACTION_CONTROL = "a text of several statements must not contain BEGIN, COMMIT, ROLLBACK,"
            + " SAVEPOINT or RELEASE: the controller keeps each session's transaction state and would lose track of it;"
            + " send transaction control as a statement of its own, or use the JDBC API (setAutoCommit, commit, rollback,"
            + " setSavepoint)";
    static final String SETTING = "a text of several statements must not contain SET, RESET or DISCARD: the controller"
            + " replays a session's settings on every backend connection it uses, so it must see each one alone; send it"
            + " as a statement of its own";

    private MultiStatement() {}

    /** @param parts the analyses of the statements, in text order, and where each statement is */
    static AnalyzedStatement combine(List<AnalyzedStatement> parts, List<TextPart> where) {
        StatementKind kind = StatementKind.READ;
        Set<String> read = new LinkedHashSet<>();
        Set<String> written = new LinkedHashSet<>();
        boolean everything = false;
        List<SchemaChange> schemaChanges = new ArrayList<>();
        RoutineChange routines = null;
        List<TextSpan> rewrite = new ArrayList<>();
        Set<String> lockCalls = new LinkedHashSet<>();
        for (int i = 0; i < parts.size(); i++) {
            AnalyzedStatement a = parts.get(i);
            if (a.kind() == StatementKind.TRANSACTION_CONTROL) {
                return AnalyzedStatement.refused(TRANSACTION_CONTROL);
            }
            if (a.kind() == StatementKind.SESSION_SETTING) {
                return AnalyzedStatement.refused(SETTING);
            }
            if (a.refusal() != null) {
                return AnalyzedStatement.refused(a.refusal());
            }
            kind = stronger(kind, a.kind());
            read.addAll(a.tablesRead());
            written.addAll(a.tablesWritten());
            // Where a new table goes is decided per statement; a text runs as one unit on each backend, so a
            // text creating a table goes to every backend (as a batch does).
            everything |= a.touchesEverything() || a.createdTable() != null;
            if (a.schemaChange() != null) {
                schemaChanges.add(a.schemaChange());
            }
            if (a.routineChange() != null) {
                routines = a.routineChange().plus(routines);
            }
            if (a.needsRewrite()) {
                rewrite.add(new TextSpan(where.get(i).start(), where.get(i).end()));
            }
            if (a.advisoryLocks() != null) {
                lockCalls.addAll(
                        a.advisoryLocks().functions()); // the whole text then runs on the lock backend, or is refused
            }
        }
        read.removeAll(written);
        AdvisoryLockCalls locks = AdvisoryLockCalls.of(lockCalls);
        return new AnalyzedStatement(
                kind,
                Set.copyOf(read),
                Set.copyOf(written),
                everything,
                null,
                null,
                !rewrite.isEmpty(),
                null,
                schemaChanges.size() == 1 ? schemaChanges.get(0) : null,
                routines,
                List.copyOf(rewrite),
                locks);
    }

    /** DDL, then calls, then writes, then reads: the kind that decides how the whole text is run and logged. */
    private static StatementKind stronger(StatementKind a, StatementKind b) {
        return rank(b) > rank(a) ? b : a;
    }

    private static int rank(StatementKind kind) {
        return switch (kind) {
            case DDL -> 3;
            case CALL -> 2;
            case READ -> 0;
            default -> 1;
        };
    }
}
