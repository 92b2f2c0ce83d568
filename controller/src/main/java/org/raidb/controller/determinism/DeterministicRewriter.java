package org.raidb.controller.determinism;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * Replaces the non-deterministic calls of a statement with literals computed once by the
 * controller, so that every backend receiving the rewritten text computes the same thing (DESIGN,
 * "Rules that keep replicas identical"). Everything else, parameters markers included, is left
 * exactly as written. See docs/determinism.md for the calls and their literals.
 *
 * <p>Meant for writes only: a DDL {@code DEFAULT now()} must stay a call.
 */
public final class DeterministicRewriter {

  private DeterministicRewriter() {}

  /**
   * The statement with every non-deterministic call of {@code dialect} replaced; the same String
   * when there is none.
   */
  public static String rewrite(String sql, SqlDialect dialect, StatementClock clock) {
    CallScanner scanner = new CallScanner(sql, dialect);
    if (!scanner.next()) {
      return sql;
    }
    LiteralWriter literals = new LiteralWriter(dialect);
    StringBuilder out = new StringBuilder(sql.length() + 32);
    int copied = 0;
    int clockReads = 0;
    int randoms = 0;
    int uuids = 0;
    do {
      out.append(sql, copied, scanner.matchStart());
      CallRule rule = scanner.rule();
      switch (rule.value()) {
        case RANDOM -> literals.random(out, clock.random(randoms++));
        case UUID -> literals.uuid(out, clock.uuid(uuids++));
        default -> {
          Instant instant = switch (rule.moment()) {
            case TRANSACTION_START -> clock.transactionStart();
            case STATEMENT_START -> clock.statementTime();
            case CLOCK -> clock.clockRead(clockReads++);
            case NONE -> throw new IllegalStateException(rule.name() + " has no moment");
          };
          ZoneId zone = rule.utc() ? ZoneOffset.UTC : clock.zone();
          literals.time(out, rule.value(), instant, zone, scanner.precision());
        }
      }
      copied = scanner.matchEnd();
    } while (scanner.next());
    return out.append(sql, copied, sql.length()).toString();
  }
}
