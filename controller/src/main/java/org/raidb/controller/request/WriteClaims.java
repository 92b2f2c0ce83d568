package org.raidb.controller.request;

import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.analysis.SchemaChange;
import org.raidb.controller.keys.KeyCatalog;
import org.raidb.controller.scheduler.Claim;
import org.raidb.controller.scheduler.ClaimSource;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.transaction.Transaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Step 4's input: the conflict classes a write claims ({@code keys.ConflictClaims}), and the
 * catalogue of keys they come from kept current through the DDL that succeeds, fails, commits or
 * rolls back.
 */
final class WriteClaims {
    private static final Logger log = LoggerFactory.getLogger(WriteClaims.class);

    private final BackendArray vdb;

    WriteClaims(BackendArray vdb) {
        this.vdb = vdb;
    }

    /**
     * @param parts the analyses of the statements the request runs
     * @param parameterRows the values the client bound, one list per execution; null for a plain Statement
     */
    ClaimSource claims(List<AnalyzedStatement> parts, List<List<Object>> parameterRows) {
        catalog().readNewlyEnabled(vdb.backends());
        return new ClaimSource() {
            private long version;

            @Override
            public List<Claim> claims() {
                version = catalog().version();
                return vdb.conflictClaims().of(parts, parameterRows);
            }

            @Override
            public boolean changed() {
                return catalog().version() != version;
            }
        };
    }

    /**
     * The DDL's work with, after it succeeded on a backend, a read of the keys it may have changed, on
     * the same connection. A failed read does not fail the DDL: its tables then conflict whole.
     *
     * @param scope the tables the DDL names, or null for any ({@code DeterministicStatements.schemaScope})
     */
    BackendWork following(BackendWork work, List<AnalyzedStatement> parts, Set<String> scope, SessionState s)
            throws SQLException {
        Set<String> changed = keyScope(parts, scope);
        Transaction tx =
                s.transaction(); // the write path starts it too, if this DDL is the transaction's first statement
        Long txId = tx == null ? null : tx.id();
        return c -> {
            StatementResult result = work.run(c);
            try {
                catalog().readAfterDdl(c, changed, txId);
            } catch (SQLException e) {
                log.warn(
                        "virtual database {}: cannot read the keys changed by DDL ({}); writes of {} conflict with their whole"
                                + " table until they are read again",
                        vdb.name(),
                        e.getMessage(),
                        changed == null ? "every table" : changed);
                catalog().forget(changed);
            }
            return result;
        };
    }

    /** An auto-commit DDL failed where some backend applied it and read its keys: they are read again. */
    void ddlFailed(List<AnalyzedStatement> parts, Set<String> scope, SessionState s) {
        if (s.currentTransaction() == null) {
            catalog().readAgain(vdb.backends(), keyScope(parts, scope));
        }
    }

    /** A transaction ended on every backend: what its DDL changed is read as it now is (committed or not). */
    void ended(Transaction tx) {
        catalog().transactionEnded(tx.id(), vdb.backends());
    }

    /**
     * The tables whose keys DDL may have changed: those it names and those it reads (a foreign key it
     * adds is known from both ends); null, every table, for DDL of unknown reach and for renames
     * (foreign keys elsewhere then name the table anew).
     */
    private static Set<String> keyScope(List<AnalyzedStatement> parts, Set<String> scope) {
        if (scope == null) {
            return null;
        }
        Set<String> out = new HashSet<>(scope);
        for (AnalyzedStatement p : parts) {
            if (p.schemaChange() != null && p.schemaChange().kind() == SchemaChange.Kind.RENAME) {
                return null;
            }
            out.addAll(p.tablesRead());
        }
        return out;
    }

    private KeyCatalog catalog() {
        return vdb.keys();
    }
}
