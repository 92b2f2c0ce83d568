package org.raidb.controller.determinism;

import static org.raidb.controller.determinism.CallMoment.CLOCK;
import static org.raidb.controller.determinism.CallMoment.STATEMENT_START;
import static org.raidb.controller.determinism.CallMoment.TRANSACTION_START;
import static org.raidb.controller.determinism.CallRule.random;
import static org.raidb.controller.determinism.CallRule.time;
import static org.raidb.controller.determinism.CallRule.timeAdjacent;
import static org.raidb.controller.determinism.CallRule.utcTime;
import static org.raidb.controller.determinism.CallSyntax.FUNCTION;
import static org.raidb.controller.determinism.CallSyntax.FUNCTION_WITH_PRECISION;
import static org.raidb.controller.determinism.CallSyntax.KEYWORD;
import static org.raidb.controller.determinism.CallSyntax.KEYWORD_OR_FUNCTION;
import static org.raidb.controller.determinism.CallSyntax.KEYWORD_OR_FUNCTION_WITH_PRECISION;
import static org.raidb.controller.determinism.CallSyntax.KEYWORD_WITH_PRECISION;
import static org.raidb.controller.determinism.CallValue.DATE;
import static org.raidb.controller.determinism.CallValue.EPOCH_SECONDS;
import static org.raidb.controller.determinism.CallValue.LOCAL_TIME;
import static org.raidb.controller.determinism.CallValue.LOCAL_TIMESTAMP;
import static org.raidb.controller.determinism.CallValue.RANDOM;
import static org.raidb.controller.determinism.CallValue.TIMESTAMP_WITH_ZONE;
import static org.raidb.controller.determinism.CallValue.TIME_OF_DAY_TEXT;
import static org.raidb.controller.determinism.CallValue.TIME_WITH_ZONE;
import static org.raidb.controller.determinism.CallValue.UUID;

import java.util.ArrayList;
import java.util.List;

/**
 * The non-deterministic built-ins of each dialect, looked up by the identifier under the scanner
 * without building a String: rules are bucketed by name length and compared in place.
 */
final class DialectCalls {

    /** PostgreSQL: now() and its synonyms report the start of the transaction. */
    private static final DialectCalls POSTGRESQL = new DialectCalls(List.of(
            time("now", FUNCTION, TIMESTAMP_WITH_ZONE, TRANSACTION_START),
            time("current_timestamp", KEYWORD_WITH_PRECISION, TIMESTAMP_WITH_ZONE, TRANSACTION_START),
            time("transaction_timestamp", FUNCTION, TIMESTAMP_WITH_ZONE, TRANSACTION_START),
            time("statement_timestamp", FUNCTION, TIMESTAMP_WITH_ZONE, STATEMENT_START),
            time("clock_timestamp", FUNCTION, TIMESTAMP_WITH_ZONE, CLOCK),
            time("current_date", KEYWORD, DATE, TRANSACTION_START),
            time("current_time", KEYWORD_WITH_PRECISION, TIME_WITH_ZONE, TRANSACTION_START),
            time("localtimestamp", KEYWORD_WITH_PRECISION, LOCAL_TIMESTAMP, TRANSACTION_START),
            time("localtime", KEYWORD_WITH_PRECISION, LOCAL_TIME, TRANSACTION_START),
            time("timeofday", FUNCTION, TIME_OF_DAY_TEXT, CLOCK),
            random("random", RANDOM),
            random("gen_random_uuid", UUID),
            random("uuid_generate_v4", UUID)));

    /** MariaDB and MySQL: NOW() reports the start of the statement; LOCALTIME is a datetime there. */
    private static final DialectCalls MARIADB = new DialectCalls(List.of(
            timeAdjacent("now", FUNCTION_WITH_PRECISION, LOCAL_TIMESTAMP, STATEMENT_START),
            time("sysdate", FUNCTION_WITH_PRECISION, LOCAL_TIMESTAMP, CLOCK),
            time("current_timestamp", KEYWORD_OR_FUNCTION_WITH_PRECISION, LOCAL_TIMESTAMP, STATEMENT_START),
            time("localtimestamp", KEYWORD_OR_FUNCTION_WITH_PRECISION, LOCAL_TIMESTAMP, STATEMENT_START),
            time("localtime", KEYWORD_OR_FUNCTION_WITH_PRECISION, LOCAL_TIMESTAMP, STATEMENT_START),
            timeAdjacent("curdate", FUNCTION, DATE, STATEMENT_START),
            time("current_date", KEYWORD_OR_FUNCTION, DATE, STATEMENT_START),
            timeAdjacent("curtime", FUNCTION_WITH_PRECISION, LOCAL_TIME, STATEMENT_START),
            time("current_time", KEYWORD_OR_FUNCTION_WITH_PRECISION, LOCAL_TIME, STATEMENT_START),
            utcTime("utc_timestamp", KEYWORD_OR_FUNCTION_WITH_PRECISION, LOCAL_TIMESTAMP),
            utcTime("utc_date", KEYWORD_OR_FUNCTION, DATE),
            utcTime("utc_time", KEYWORD_OR_FUNCTION_WITH_PRECISION, LOCAL_TIME),
            time("unix_timestamp", FUNCTION, EPOCH_SECONDS, STATEMENT_START),
            random("rand", RANDOM),
            random("uuid", UUID)));

    /**
     * Other databases: the ANSI meaning of the standard names (statement start, LOCALTIME a time),
     * every other name of both families, each with its most permissive spelling. Being a superset of
     * PostgreSQL under the same lexer is what lets {@link NonDeterministicCalls#mayContain(String)}
     * answer for every dialect with two scans.
     */
    private static final DialectCalls GENERIC = new DialectCalls(List.of(
            time("now", FUNCTION_WITH_PRECISION, TIMESTAMP_WITH_ZONE, STATEMENT_START),
            time("current_timestamp", KEYWORD_OR_FUNCTION_WITH_PRECISION, TIMESTAMP_WITH_ZONE, STATEMENT_START),
            time("transaction_timestamp", FUNCTION, TIMESTAMP_WITH_ZONE, TRANSACTION_START),
            time("statement_timestamp", FUNCTION, TIMESTAMP_WITH_ZONE, STATEMENT_START),
            time("clock_timestamp", FUNCTION, TIMESTAMP_WITH_ZONE, CLOCK),
            time("sysdate", FUNCTION_WITH_PRECISION, LOCAL_TIMESTAMP, CLOCK),
            time("current_date", KEYWORD_OR_FUNCTION, DATE, STATEMENT_START),
            time("curdate", FUNCTION, DATE, STATEMENT_START),
            time("current_time", KEYWORD_OR_FUNCTION_WITH_PRECISION, TIME_WITH_ZONE, STATEMENT_START),
            time("curtime", FUNCTION_WITH_PRECISION, LOCAL_TIME, STATEMENT_START),
            time("localtimestamp", KEYWORD_OR_FUNCTION_WITH_PRECISION, LOCAL_TIMESTAMP, STATEMENT_START),
            time("localtime", KEYWORD_OR_FUNCTION_WITH_PRECISION, LOCAL_TIME, STATEMENT_START),
            utcTime("utc_timestamp", KEYWORD_OR_FUNCTION_WITH_PRECISION, LOCAL_TIMESTAMP),
            utcTime("utc_date", KEYWORD_OR_FUNCTION, DATE),
            utcTime("utc_time", KEYWORD_OR_FUNCTION_WITH_PRECISION, LOCAL_TIME),
            time("unix_timestamp", FUNCTION, EPOCH_SECONDS, STATEMENT_START),
            time("timeofday", FUNCTION, TIME_OF_DAY_TEXT, CLOCK),
            random("random", RANDOM),
            random("rand", RANDOM),
            random("gen_random_uuid", UUID),
            random("uuid_generate_v4", UUID),
            random("uuid", UUID)));

    private final CallRule[][] byLength;

    private DialectCalls(List<CallRule> rules) {
        int longest = rules.stream().mapToInt(r -> r.name().length()).max().orElse(0);
        List<List<CallRule>> buckets = new ArrayList<>();
        for (int i = 0; i <= longest; i++) {
            buckets.add(new ArrayList<>());
        }
        rules.forEach(r -> buckets.get(r.name().length()).add(r));
        byLength = buckets.stream().map(b -> b.toArray(CallRule[]::new)).toArray(CallRule[][]::new);
    }

    static DialectCalls of(SqlDialect dialect) {
        return switch (dialect) {
            case POSTGRESQL -> POSTGRESQL;
            case MARIADB -> MARIADB;
            case GENERIC -> GENERIC;
        };
    }

    /** The rule named by {@code sql[start, end)}, or null. */
    CallRule lookup(String sql, int start, int end) {
        int length = end - start;
        if (length >= byLength.length) {
            return null;
        }
        for (CallRule rule : byLength[length]) {
            if (sql.regionMatches(true, start, rule.name(), 0, length)) {
                return rule;
            }
        }
        return null;
    }
}
