package org.raidb.controller.determinism;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Whether a statement needs {@link DeterministicRewriter} at all. Runs on every write before the
 * analysis is cached, so it makes one pass over the text and allocates nothing but its scanner.
 */
public final class NonDeterministicCalls {

    private NonDeterministicCalls() {}

    /**
     * Whether {@code sql} calls one of {@code dialect}'s non-deterministic built-ins in code. Exactly
     * when {@link DeterministicRewriter#rewrite} would change the text.
     */
    public static boolean mayContain(String sql, SqlDialect dialect) {
        return new CallScanner(sql, dialect).next();
    }

    /**
     * Whether {@code sql} may call a non-deterministic built-in in any dialect: true whenever {@link
     * DeterministicRewriter#rewrite} would change the text for some dialect. For a virtual database
     * whose backends' dialects are not known yet, or mixed. GENERIC recognises everything
     * PostgreSQL does with the same lexer, so two scans cover the three dialects.
     */
    public static boolean mayContain(String sql) {
        return mayContain(sql, SqlDialect.GENERIC) || mayContain(sql, SqlDialect.MARIADB);
    }

    /**
     * Whether {@code sql} calls a built-in of {@code dialect} whose every call gives a value of its
     * own: random(), a UUID generator, clock_timestamp(), SYSDATE(). A default made of such calls needs
     * one value per row; now() and the like give every row of a statement the same one.
     */
    public static boolean mayContainPerCallValue(String sql, SqlDialect dialect) {
        CallScanner scanner = new CallScanner(sql, dialect);
        while (scanner.next()) {
            if (scanner.rule().perCall()) {
                return true;
            }
        }
        return false;
    }

    /** The non-deterministic calls of {@code sql} as written, each once, in text order: for messages. */
    public static List<String> found(String sql, SqlDialect dialect) {
        Set<String> calls = new LinkedHashSet<>();
        for (CallScanner scanner = new CallScanner(sql, dialect); scanner.next(); ) {
            calls.add(sql.substring(scanner.matchStart(), scanner.matchEnd()));
        }
        return List.copyOf(calls);
    }
}
