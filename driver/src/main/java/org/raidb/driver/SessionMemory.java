package org.raidb.driver;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;
import org.raidb.driver.protocol.ClientInfoFrame;
import org.raidb.driver.protocol.ExecuteFrame;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.RequestTag;
import org.raidb.driver.protocol.TransactionFrame;
import org.raidb.driver.sql.SqlLexer;
import org.raidb.driver.sql.SqlSyntax;
import org.raidb.driver.sql.TokenKind;

/**
 * What a connection remembers of its session so that another controller can take it over when its controller
 * fails: the client session id and request counter that make a request recognizable wherever it is sent, the
 * settings the session was given (auto-commit, isolation, read-only, the SET statements the client ran, its
 * ApplicationName), and the open transaction's {@link TransactionJournal}.
 *
 * <p>Thread-safe: a connection may be shared by threads.
 */
final class SessionMemory {
    private final String clientSessionId = UUID.randomUUID().toString();
    private final TransactionJournal journal = new TransactionJournal();
    private long lastRequestId;

    private boolean autoCommit = true;
    private int isolation = -1; // -1: never set, the controller's default
    private boolean readOnly;
    /** SET and RESET statements run outside a transaction (or in one since committed), in order. */
    private final List<String> settings = new ArrayList<>();
    /** Those run in the open transaction: they hold once it commits. */
    private final List<String> pendingSettings = new ArrayList<>();
    /** A BEGIN sent as SQL in auto-commit mode: a transaction until COMMIT or ROLLBACK is sent as SQL. */
    private boolean sqlTransaction;

    private final String helloApplicationName;
    private String applicationName;

    SessionMemory(String helloApplicationName) {
        this.helloApplicationName = helloApplicationName;
        this.applicationName = helloApplicationName;
    }

    String clientSessionId() {
        return clientSessionId;
    }

    TransactionJournal journal() {
        return journal;
    }

    /** The tag of a new request that may write. */
    synchronized RequestTag nextTag() {
        return RequestTag.of(++lastRequestId);
    }

    /** Whether the requests answered now belong to a transaction that a failover would have to replay. */
    synchronized boolean inTransaction() {
        return !autoCommit || sqlTransaction;
    }

    synchronized void autoCommit(boolean on) {
        if (on && !autoCommit) {
            transactionEnded(true); // JDBC: switching auto-commit on commits
        }
        autoCommit = on;
    }

    synchronized void isolation(int level) {
        isolation = level;
    }

    synchronized void readOnly(boolean on) {
        readOnly = on;
    }

    synchronized void applicationName(String name) {
        applicationName = name;
    }

    /** The transaction ended: committed (its SET statements now hold) or rolled back. Its journal is emptied. */
    synchronized void transactionEnded(boolean committed) {
        if (committed) {
            settings.addAll(pendingSettings);
        }
        pendingSettings.clear();
        sqlTransaction = false;
        journal.clear();
    }

    /**
     * A statement succeeded: a SET or RESET is remembered, a BEGIN, COMMIT or ROLLBACK sent as SQL starts or
     * ends a transaction.
     */
    synchronized void statementSucceeded(String sql) {
        SqlLexer lexer = new SqlLexer(sql, SqlSyntax.POSTGRESQL);
        String first = word(lexer);
        if (first == null) {
            return;
        }
        switch (first) {
            case "begin", "start" -> {
                if (autoCommit) {
                    sqlTransaction = true;
                }
            }
            case "commit", "end" -> transactionEnded(true);
            case "abort" -> transactionEnded(false);
            case "rollback" -> {
                String second = word(lexer);
                if (!"to".equals(second)) {
                    transactionEnded(false); // ROLLBACK TO SAVEPOINT keeps the transaction
                }
            }
            case "set", "reset" -> {
                String second = word(lexer);
                // SET LOCAL and SET TRANSACTION last for the transaction only; SET CONSTRAINTS too.
                if (!"local".equals(second) && !"transaction".equals(second) && !"constraints".equals(second)) {
                    (inTransaction() ? pendingSettings : settings).add(sql);
                }
            }
            default -> {
                // not a statement that changes the session
            }
        }
    }

    private static String word(SqlLexer lexer) {
        TokenKind k = lexer.nextCode();
        return k == TokenKind.WORD ? lexer.text().toLowerCase(Locale.ROOT) : null;
    }

    /**
     * The requests that give a new controller's session the settings of this one, in order: auto-commit,
     * isolation, read-only, SET statements, ApplicationName (when it changed since HELLO). They carry no
     * request id: they change only the session.
     */
    synchronized List<ControllerChannel.Request> restoreRequests() {
        List<ControllerChannel.Request> requests = new ArrayList<>();
        if (!autoCommit) {
            requests.add(TransactionFrame.autoCommit(false)::write);
        }
        if (isolation >= 0 && isolation != Connection.TRANSACTION_NONE) {
            requests.add(TransactionFrame.isolation(isolation)::write);
        }
        if (readOnly) {
            requests.add(TransactionFrame.readOnly(true)::write);
        }
        for (String set : settings) {
            requests.add(new ExecuteFrame(
                    set, null, Protocol.MODE_ANY, Protocol.FLAG_NO_ESCAPE_PROCESSING, null, 0, 0, 0)::write);
        }
        if (!Objects.equals(applicationName, helloApplicationName)) {
            requests.add(new ClientInfoFrame(Protocol.APPLICATION_NAME, applicationName)::write);
        }
        return requests;
    }
}
