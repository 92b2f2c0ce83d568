package org.raidb.controller.determinism;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link NonDeterministicCalls#mayContain} must never say no where the rewriter would say yes. */
class DeterminismMayContainTest {

    /** Pieces that stress the lexers where they differ: quotes, escapes, comments, qualifiers. */
    private static final String[] FRAGMENTS = {
        "now()",
        "NOW ()",
        "now(3)",
        "random()",
        "RAND()",
        "RAND(7)",
        "UUID()",
        "gen_random_uuid()",
        "CURRENT_DATE",
        "current_timestamp",
        "(2)",
        "()",
        "localtime",
        "SYSDATE()",
        "UTC_TIME",
        "unix_timestamp()",
        "timeofday()",
        "'",
        "''",
        "\"",
        "`",
        "\\",
        "E'",
        "$$",
        "$a$",
        "$1",
        "--",
        "-- ",
        "#",
        "/*",
        "*/",
        "/*!",
        "\n",
        " ",
        ".",
        " AS ",
        "pg_catalog.",
        "x",
        "1",
        ",",
        "?",
        "(",
        ")",
        "my_now()",
        "t.now",
    };

    private static final String[] HAND_WRITTEN = {
        "INSERT INTO t VALUES (now(), ?)",
        "UPDATE t SET a = 'now()' WHERE b = ?",
        "SELECT 1--1, NOW()",
        "SELECT 'it\\'s', now()",
        "SELECT 1 # 2, now()",
        "SELECT $$ now() $$",
        "SELECT /* /* */ now() */ 1",
        "INSERT INTO t VALUES (1, 'plain')",
        "DELETE FROM t WHERE id = ?",
    };

    @Test
    void agreesWithTheRewriterOnHandWrittenAndRandomSamples() {
        List<String> samples = new ArrayList<>(List.of(HAND_WRITTEN));
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sql = new StringBuilder("SELECT ");
            int pieces = 1 + random.nextInt(10);
            for (int p = 0; p < pieces; p++) {
                sql.append(FRAGMENTS[random.nextInt(FRAGMENTS.length)]);
            }
            samples.add(sql.toString());
        }
        int rewrittenSomewhere = 0;
        for (String sql : samples) {
            boolean anyDialect = false;
            for (SqlDialect dialect : SqlDialect.values()) {
                boolean changed = !DeterministicRewriter.rewrite(sql, dialect, FixedStatementClock.utc())
                        .equals(sql);
                assertThat(NonDeterministicCalls.mayContain(sql, dialect))
                        .as("%s in %s", sql, dialect)
                        .isEqualTo(changed);
                anyDialect |= changed;
                if (changed) {
                    assertThat(NonDeterministicCalls.mayContain(sql)).as(sql).isTrue();
                }
            }
            if (!NonDeterministicCalls.mayContain(sql)) {
                assertThat(anyDialect).isFalse();
            } else {
                rewrittenSomewhere += anyDialect ? 1 : 0;
            }
        }
        assertThat(rewrittenSomewhere)
                .as("the samples exercise both answers")
                .isGreaterThan(1000)
                .isLessThan(samples.size() - 1000);
    }

    @Test
    void aPlainWriteIsAnsweredWithoutRewriting() {
        assertThat(NonDeterministicCalls.mayContain("UPDATE accounts SET balance = balance + ? WHERE id = ?"))
                .isFalse();
        assertThat(NonDeterministicCalls.mayContain("UPDATE accounts SET seen = now() WHERE id = ?"))
                .isTrue();
        assertThat(NonDeterministicCalls.mayContain("SELECT 1 # now()"))
                .as("a call in PostgreSQL, where # is an operator")
                .isTrue();
    }
}
