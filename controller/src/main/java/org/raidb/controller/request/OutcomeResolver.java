package org.raidb.controller.request;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.backend.FailureClassifier;
import org.raidb.driver.protocol.SqlStates;

/**
 * Turns the answers of all backends to one write into one answer for the client, applying DESIGN's
 * rules: a backend whose connection failed is disabled; an error every backend returns is the
 * client's; when backends disagree (some succeed and others fail, or update counts differ) the
 * minority is disabled, so that no backend silently diverges.
 */
public final class OutcomeResolver {
    private OutcomeResolver() {}

    /**
     * One answer for the client, and what becomes of the backends that answered otherwise.
     *
     * @param winner the outcome whose result the client gets, null when the client gets {@code clientError}
     * @param toDisable backends to take out of the array, with the reason to log
     * @param diverged those of {@code toDisable} that answered, differently from the majority (the others'
     *     connection failed): under partial replication only the tables the write touched are disabled there
     */
    public record Resolution(
            BackendOutcome winner,
            SQLException clientError,
            Map<DatabaseBackend, String> toDisable,
            Set<DatabaseBackend> diverged) {
        Resolution(BackendOutcome winner, SQLException clientError, Map<DatabaseBackend, String> toDisable) {
            this(winner, clientError, toDisable, Set.of());
        }
    }

    public static Resolution resolve(List<BackendOutcome> outcomes, String statement) {
        return resolve(outcomes, statement, false);
    }

    /**
     * Resolves the answers of all backends to one statement, telling a client's error from a divergence.
     *
     * @param inTransaction a statement of a transaction that the caller rolls back everywhere on a
     *     class-40 error: a backend choosing it as a deadlock or serialization victim is then not a
     *     divergence, since no backend will keep its work. Not a COMMIT that some backends applied: that
     *     work is kept there.
     */
    public static Resolution resolve(List<BackendOutcome> outcomes, String statement, boolean inTransaction) {
        Map<DatabaseBackend, String> toDisable = new LinkedHashMap<>();
        List<BackendOutcome> answered = new ArrayList<>();
        for (BackendOutcome o : outcomes) {
            if (!o.succeeded() && FailureClassifier.isBackendFailure(o.error())) {
                toDisable.put(o.backend(), FailureClassifier.failureReason(o.error()));
            } else {
                answered.add(o);
            }
        }
        if (inTransaction) {
            for (BackendOutcome o : answered) {
                if (!o.succeeded() && SqlStates.isTransactionRollback(o.error().getSQLState())) {
                    return new Resolution(null, victim(o), toDisable);
                }
            }
        }
        if (answered.isEmpty()) {
            SQLException e = new SQLException(
                    "every backend failed while running the statement; the virtual database has no "
                            + "backend left to serve it until one is enabled again",
                    SqlStates.CONNECTION_FAILURE);
            outcomes.forEach(o -> e.addSuppressed(o.error()));
            return new Resolution(null, e, toDisable);
        }
        // Group identical answers; the largest group is the truth, ties go to the earlier backend.
        Map<String, List<BackendOutcome>> groups = new LinkedHashMap<>();
        for (BackendOutcome o : answered) {
            String key = o.succeeded() ? "ok: " + o.result().signature() : "error";
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(o);
        }
        List<BackendOutcome> majority = null;
        for (List<BackendOutcome> g : groups.values()) {
            if (majority == null
                    || g.size() > majority.size()
                    || (g.size() == majority.size() && prefersSuccess(g, majority))) {
                majority = g;
            }
        }
        BackendOutcome reference = majority.get(0);
        Set<DatabaseBackend> diverged = new LinkedHashSet<>();
        for (BackendOutcome o : answered) {
            if (!majority.contains(o)) {
                toDisable.put(o.backend(), divergence(o, reference, statement));
                diverged.add(o.backend());
            }
        }
        if (!reference.succeeded()) {
            return new Resolution(null, reference.error(), toDisable, diverged);
        }
        return new Resolution(reference, null, toDisable, diverged);
    }

    /**
     * Each server picks its own serialization and deadlock victims (SSI sees the reads made on it, and
     * lock waits interleave differently), so one backend's victim may have succeeded on the others: the
     * client hears that the transaction is to be run again, with the state the backend gave.
     */
    private static SQLException victim(BackendOutcome o) {
        SQLException e = o.error();
        return new SQLException(
                "backend " + o.backend().name() + " chose this transaction as a serialization or deadlock" + " victim ("
                        + e.getMessage() + "): it is rolled back on every backend; run the transaction again",
                e.getSQLState(),
                e);
    }

    /** On a tie between success and failure, the write happened somewhere: keep the side that applied it. */
    private static boolean prefersSuccess(List<BackendOutcome> candidate, List<BackendOutcome> current) {
        return candidate.get(0).succeeded() && !current.get(0).succeeded();
    }

    private static String divergence(BackendOutcome o, BackendOutcome reference, String statement) {
        String mine = o.succeeded()
                ? o.result().signature()
                : "error " + o.error().getSQLState() + " " + o.error().getMessage();
        String theirs = reference.succeeded()
                ? reference.result().signature()
                : "error " + reference.error().getSQLState();
        return "diverged on [" + abbreviate(statement) + "]: it answered " + mine + " while "
                + reference.backend().name() + " and the majority answered " + theirs;
    }

    static String abbreviate(String sql) {
        String s = sql.replaceAll("\\s+", " ").trim();
        return s.length() <= 160 ? s : s.substring(0, 160) + "…";
    }
}
