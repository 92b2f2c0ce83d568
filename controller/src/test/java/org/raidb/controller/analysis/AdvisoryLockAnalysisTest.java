package org.raidb.controller.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AdvisoryLockAnalysisTest {
    private final SqlAnalyzer analyzer = new SqlAnalyzer();

    @Test
    void selectsCallingLockFunctionsAreMarked() {
        AnalyzedStatement lock = analyzer.analyze("SELECT pg_advisory_lock(4242)");
        assertThat(lock.kind()).isEqualTo(StatementKind.READ);
        assertThat(lock.advisoryLocks().functions()).containsExactly("pg_advisory_lock");
        assertThat(lock.advisoryLocks().changesSessionLocks()).isTrue();
        AnalyzedStatement xact = analyzer.analyze("select PG_TRY_ADVISORY_XACT_LOCK(?)");
        assertThat(xact.advisoryLocks().functions()).containsExactly("pg_try_advisory_xact_lock");
        assertThat(xact.advisoryLocks().changesSessionLocks())
                .as("released with its transaction")
                .isFalse();
        AnalyzedStatement queue = analyzer.analyze("SELECT id FROM jobs WHERE pg_try_advisory_lock(id) LIMIT 1");
        assertThat(queue.tablesRead()).containsExactly("jobs");
        assertThat(queue.advisoryLocks().functions()).containsExactly("pg_try_advisory_lock");
    }

    @Test
    void mariaDbLockFunctionsAreMarked() {
        AnalyzedStatement get = analyzer.analyze("SELECT GET_LOCK('k', 10)");
        assertThat(get.advisoryLocks().mayTakeMariaDbLock()).isTrue();
        AnalyzedStatement all = analyzer.analyze("SELECT RELEASE_ALL_LOCKS()");
        assertThat(all.advisoryLocks().releasesAllMariaDbLocks()).isTrue();
        assertThat(all.advisoryLocks().mayTakeMariaDbLock()).isFalse();
        assertThat(analyzer.analyze("SELECT IS_USED_LOCK('k')").advisoryLocks().changesSessionLocks())
                .isFalse();
    }

    @Test
    void namesInTextOrOfColumnsAreNotCalls() {
        assertThat(analyzer.analyze("SELECT 'pg_advisory_lock(1)'").advisoryLocks())
                .isNull();
        assertThat(analyzer.analyze("SELECT get_lock FROM settings").advisoryLocks())
                .isNull();
        assertThat(analyzer.analyze("SELECT count(*) FROM stock").advisoryLocks())
                .isNull();
    }

    @Test
    void writesCallingLockFunctionsAreMarkedForRefusal() {
        AnalyzedStatement update = analyzer.analyze("UPDATE jobs SET taken = true WHERE pg_try_advisory_lock(id)");
        assertThat(update.kind()).isEqualTo(StatementKind.WRITE);
        assertThat(update.advisoryLocks()).isNotNull();
    }

    @Test
    void callsOfLockFunctionsAreMarked() {
        AnalyzedStatement call = analyzer.analyzeCall("select * from pg_try_advisory_lock(?) as result");
        assertThat(call.kind()).isEqualTo(StatementKind.CALL);
        assertThat(call.advisoryLocks().functions()).containsExactly("pg_try_advisory_lock");
        assertThat(analyzer.analyzeCall("select * from transfer(?, ?)").advisoryLocks())
                .isNull();
    }
}
