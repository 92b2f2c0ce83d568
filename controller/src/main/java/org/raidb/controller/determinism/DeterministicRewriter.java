package org.raidb.controller.determinism;

import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.raidb.driver.protocol.SqlStates;

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
        return rewrite(sql, dialect, clock, null);
    }

    /**
     * The statement with the non-deterministic calls inside {@code only} replaced (every call when
     * {@code only} is null); the same String when there is none. The spans are in text order. One
     * pass with one clock over the whole text: two {@code random()} in different statements of it get
     * different values, two {@code now()} the same.
     */
    public static String rewrite(String sql, SqlDialect dialect, StatementClock clock, List<TextSpan> only) {
        CallScanner scanner = new CallScanner(sql, dialect);
        if (!nextIn(scanner, only)) {
            return sql;
        }
        LiteralWriter literals = new LiteralWriter(dialect);
        StringBuilder out = new StringBuilder(sql.length() + 32);
        Occurrences occurrences = new Occurrences();
        int copied = 0;
        do {
            out.append(sql, copied, scanner.matchStart());
            CallRule rule = scanner.rule();
            writeLiteral(out, rule, scanner.precision(), literals, clock, occurrences.next(rule));
            copied = scanner.matchEnd();
        } while (nextIn(scanner, only));
        return out.append(sql, copied, sql.length()).toString();
    }

    private static boolean nextIn(CallScanner scanner, List<TextSpan> only) {
        while (scanner.next()) {
            if (only == null || only.stream().anyMatch(span -> span.contains(scanner.matchStart()))) {
                return true;
            }
        }
        return false;
    }

    /**
     * A prepared statement run as a JDBC batch, made deterministic row by row: each row of the batch
     * gets its own value for every call that gives one per call (random(), UUIDs, fresh clock reads),
     * as it would if the backend ran it, while now() and the like become one literal for the whole
     * batch. The per-row values travel as parameters, so the text stays one prepared statement; each
     * call becomes a marker read as the call's type ({@code CAST(? AS UUID)}).
     *
     * @throws SQLException 0A000 when the rows do not hold one value per marker of the text, so that
     *     the values could not be placed among them
     */
    public static DeterministicBatch rewriteBatch(
            String sql, List<List<Object>> rows, SqlDialect dialect, StatementClock clock) throws SQLException {
        List<Call> calls = new ArrayList<>();
        Occurrences perKind = new Occurrences();
        for (CallScanner scanner = new CallScanner(sql, dialect); scanner.next(); ) {
            CallRule rule = scanner.rule();
            calls.add(new Call(
                    rule,
                    scanner.matchStart(),
                    scanner.matchEnd(),
                    scanner.precision(),
                    rule.perCall() ? perKind.next(rule) : 0));
        }
        if (calls.stream().noneMatch(c -> c.rule.perCall())) {
            return new DeterministicBatch(rewrite(sql, dialect, clock), rows);
        }
        LiteralWriter literals = new LiteralWriter(dialect);
        StringBuilder out = new StringBuilder(sql.length() + 32);
        Set<Integer> ourMarkers = new HashSet<>();
        List<List<Object>> values = new ArrayList<>(rows.size());
        rows.forEach(r -> values.add(new ArrayList<>()));
        int copied = 0;
        for (Call call : calls) {
            out.append(sql, copied, call.start);
            copied = call.end;
            if (!call.rule.perCall()) {
                writeLiteral(out, call.rule, call.precision, literals, clock, 0);
                continue;
            }
            for (int r = 0; r < rows.size(); r++) {
                StringBuilder literal = new StringBuilder();
                writeLiteral(
                        literal,
                        call.rule,
                        call.precision,
                        literals,
                        clock,
                        r * perKind.count(call.rule) + call.occurrence);
                values.get(r).add(literals.asParameter(literal.toString()).value());
            }
            StringBuilder firstRow = new StringBuilder();
            writeLiteral(firstRow, call.rule, call.precision, literals, clock, call.occurrence);
            String marker = literals.asParameter(firstRow.toString()).marker();
            ourMarkers.add(out.length() + marker.indexOf('?'));
            out.append(marker);
        }
        String text = out.append(sql, copied, sql.length()).toString();
        return new DeterministicBatch(text, placeValues(text, dialect, rows, values, ourMarkers));
    }

    /** Each row's parameters with the controller's values put at their markers' places among the client's. */
    private static List<List<Object>> placeValues(
            String text,
            SqlDialect dialect,
            List<List<Object>> rows,
            List<List<Object>> values,
            Set<Integer> ourMarkers)
            throws SQLException {
        SqlTokens tokens = SqlTokens.of(text, dialect);
        List<Boolean> markerIsOurs = new ArrayList<>();
        for (int t = 0; t < tokens.size(); t++) {
            if (tokens.kind(t) == SqlTokens.Kind.PARAMETER) {
                markerIsOurs.add(ourMarkers.contains(tokens.start(t)));
            }
        }
        List<List<Object>> out = new ArrayList<>(rows.size());
        for (int r = 0; r < rows.size(); r++) {
            List<Object> row = rows.get(r);
            List<Object> placed = new ArrayList<>(markerIsOurs.size());
            int client = 0;
            int ours = 0;
            for (boolean isOurs : markerIsOurs) {
                if (isOurs) {
                    placed.add(values.get(r).get(ours++));
                } else if (client < row.size()) {
                    placed.add(row.get(client++));
                }
            }
            if (client != row.size() || placed.size() != markerIsOurs.size()) {
                throw new SQLException(
                        "row " + (r + 1) + " of the batch has " + row.size() + " parameters where the statement "
                                + "has " + (markerIsOurs.size() - ours)
                                + " markers, so the values the controller computes for its calls "
                                + "to random(), UUID or clock functions cannot be placed: execute the rows one at a time",
                        SqlStates.FEATURE_NOT_SUPPORTED);
            }
            out.add(placed);
        }
        return out;
    }

    private static void writeLiteral(
            StringBuilder out,
            CallRule rule,
            int precision,
            LiteralWriter literals,
            StatementClock clock,
            int occurrence) {
        switch (rule.value()) {
            case RANDOM -> literals.random(out, clock.random(occurrence));
            case UUID -> literals.uuid(out, clock.uuid(occurrence));
            default -> {
                Instant instant = switch (rule.moment()) {
                    case TRANSACTION_START -> clock.transactionStart();
                    case STATEMENT_START -> clock.statementTime();
                    case CLOCK -> clock.clockRead(occurrence);
                    case NONE -> throw new IllegalStateException(rule.name() + " has no moment");
                };
                ZoneId zone = rule.utc() ? ZoneOffset.UTC : clock.zone();
                literals.time(out, rule.value(), instant, zone, precision);
            }
        }
    }

    /** One call found in the text; {@code occurrence} counts the calls of its kind before it. */
    private record Call(CallRule rule, int start, int end, int precision, int occurrence) {}

    /** Counts clock reads, random values and UUIDs separately: each kind has its own sequence in the clock. */
    private static final class Occurrences {
        private int clockReads;
        private int randoms;
        private int uuids;

        int next(CallRule rule) {
            return switch (rule.value()) {
                case RANDOM -> randoms++;
                case UUID -> uuids++;
                default -> rule.moment() == CallMoment.CLOCK ? clockReads++ : 0;
            };
        }

        int count(CallRule rule) {
            return switch (rule.value()) {
                case RANDOM -> randoms;
                case UUID -> uuids;
                default -> clockReads;
            };
        }
    }
}
