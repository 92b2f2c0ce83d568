package org.raidb.controller.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.raidb.driver.protocol.SqlStates;

/** Which errors mean that a backend failed, rather than that the statement did. */
class FailureClassifierTest {

    /**
     * Work queued on a pooled connection that was closed meanwhile (its backend disabled, its pool closed)
     * meets HikariCP's stand-in for a closed connection, whose error has no SQLState. It broke: a failure.
     */
    @Test
    void hikarisClosedConnectionIsABackendFailure() throws Exception {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:h2:mem:classifier");
        config.setMaximumPoolSize(1);
        SQLException closed;
        try (HikariDataSource pool = new HikariDataSource(config)) {
            Connection c = pool.getConnection();
            c.close();
            closed = catchThrowableOfType(c::createStatement, SQLException.class);
        }
        assertThat(closed.getSQLState()).as("HikariCP gives no SQLState").isNull();
        assertThat(FailureClassifier.isBackendFailure(closed)).isTrue();
        assertThat(FailureClassifier.failureReason(closed))
                .startsWith("connection failed")
                .contains("08003")
                .contains("closed");
    }

    @Test
    void aStatementErrorWithoutSqlStateIsNoBackendFailure() {
        assertThat(FailureClassifier.isBackendFailure(new SQLException("syntax error somewhere")))
                .isFalse();
    }

    @Test
    void aHangIsAFailureWhoseReasonIsItsMessage() {
        NoAnswerException hang = new NoAnswerException(
                "did not answer within " + NoAnswerException.backendTimeout(3000) + " while others did");
        assertThat(FailureClassifier.isBackendFailure(hang)).isTrue();
        assertThat(FailureClassifier.failureReason(hang))
                .isEqualTo("did not answer within backendTimeout (3 s) while others did");
        assertThat(NoAnswerException.backendTimeout(2500)).isEqualTo("backendTimeout (2500 ms)");
    }

    @Test
    void aBusyPoolIsNoFailureEvenAsATransientConnectionError() {
        SQLException busy = new SQLException(
                "no free connection",
                SqlStates.TOO_MANY_CONNECTIONS,
                new java.sql.SQLTransientConnectionException("timeout"));
        assertThat(FailureClassifier.isBackendFailure(busy)).isFalse();
    }
}
