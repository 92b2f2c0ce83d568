package org.raidb.controller.determinism;

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
}
