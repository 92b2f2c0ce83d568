package org.raidb.controller.transaction;

import java.sql.Connection;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Transaction modes as clients write them in SQL rather than through JDBC: {@code BEGIN ISOLATION
 * LEVEL …}, {@code START TRANSACTION …}, {@code SET TRANSACTION …}, and the session defaults
 * ({@code SET SESSION CHARACTERISTICS AS TRANSACTION …}, {@code SET default_transaction_isolation},
 * MariaDB's {@code transaction_isolation}/{@code tx_isolation}).
 *
 * <p>Why the controller reads them: it must set a BEGIN's modes on each backend the transaction
 * joins (the BEGIN itself is never sent), and a REPEATABLE READ or SERIALIZABLE transaction must
 * read from one backend only. Only the standard modes are understood; anything else is left as
 * before (a BEGIN's other options are ignored, a SET goes to the backends as it is).
 */
public final class TransactionModes {
    /** Returned by {@link #sessionDefault} for a setting that does not set the default isolation. */
    public static final int NOT_ISOLATION = -2;

    private static final String LEVEL = "SERIALIZABLE|REPEATABLE\\s+READ|READ\\s+COMMITTED|READ\\s+UNCOMMITTED";
    private static final String MODE =
            "(?:ISOLATION\\s+LEVEL\\s+(?:" + LEVEL + ")|READ\\s+WRITE|READ\\s+ONLY|(?:NOT\\s+)?DEFERRABLE)";
    private static final String MODES = "(" + MODE + "(?:\\s*,?\\s*" + MODE + ")*)";
    /** Leading blanks and comments, and a trailing semicolon, around the statement. */
    private static final String LEAD = "^(?:\\s|--[^\\n]*(?:\\n|$)|/\\*.*?\\*/)*";

    private static final String TAIL = "\\s*;?\\s*$";
    private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.DOTALL;

    private static final Pattern BEGIN = Pattern.compile(
            LEAD + "(?:BEGIN(?:\\s+(?:WORK|TRANSACTION))?|START\\s+TRANSACTION)\\s+" + MODES + TAIL, FLAGS);
    private static final Pattern SET_TRANSACTION =
            Pattern.compile(LEAD + "SET\\s+TRANSACTION\\s+" + MODES + TAIL, FLAGS);
    private static final Pattern SESSION_CHARACTERISTICS =
            Pattern.compile(LEAD + "SET\\s+SESSION\\s+CHARACTERISTICS\\s+AS\\s+TRANSACTION\\s+" + MODES + TAIL, FLAGS);
    private static final Pattern DEFAULT_ISOLATION = Pattern.compile(
            LEAD
                    + "SET\\s+(?:SESSION\\s+|@@SESSION\\.|@@)?(?:default_transaction_isolation|transaction_isolation|tx_isolation)"
                    + "\\s*(?:=|\\s+TO\\s+|\\s)\\s*(?:'([^']*)'|\"([^\"]*)\"|(\\w+))" + TAIL,
            FLAGS);
    private static final Pattern ISOLATION = Pattern.compile("ISOLATION\\s+LEVEL\\s+(" + LEVEL + ")", FLAGS);

    private TransactionModes() {}

    /**
     * The modes of a {@code BEGIN}/{@code START TRANSACTION} text, as {@code SET TRANSACTION} takes
     * them; null when it names none (or options this class does not know).
     */
    public static String ofBegin(String sql) {
        return modes(BEGIN, sql);
    }

    /** The modes of a {@code SET TRANSACTION} text; null for any other text. */
    public static String ofSetTransaction(String sql) {
        return modes(SET_TRANSACTION, sql);
    }

    /**
     * For a session setting: the default isolation it sets (a java.sql.Connection level, -1 for
     * DEFAULT: the backends' own), or {@link #NOT_ISOLATION}.
     */
    public static int sessionDefault(String sql) {
        String modes = modes(SESSION_CHARACTERISTICS, sql);
        if (modes != null) {
            int level = isolationOf(modes);
            return level >= 0 ? level : NOT_ISOLATION;
        }
        Matcher m = DEFAULT_ISOLATION.matcher(sql);
        if (!m.matches()) {
            return NOT_ISOLATION;
        }
        String value = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
        String words = value.trim().replace('-', ' ').replaceAll("\\s+", " ").toUpperCase(Locale.ROOT);
        return words.equals("DEFAULT") ? -1 : level(words);
    }

    /** The isolation level that transaction modes name (a java.sql.Connection level), or -1. */
    public static int isolationOf(String modes) {
        if (modes == null) {
            return -1;
        }
        Matcher m = ISOLATION.matcher(modes);
        int level = -1;
        while (m.find()) {
            level = level(m.group(1).replaceAll("\\s+", " ").toUpperCase(Locale.ROOT)); // the last one counts
        }
        return level;
    }

    /**
     * Whether transactions at this level, on backends whose default is {@code defaultLevel}, keep one
     * snapshot from their first statement to their end (REPEATABLE READ, SERIALIZABLE).
     */
    public static boolean keepsOneSnapshot(int level, int defaultLevel) {
        int effective = level >= 0 ? level : defaultLevel;
        return effective == Connection.TRANSACTION_REPEATABLE_READ || effective == Connection.TRANSACTION_SERIALIZABLE;
    }

    private static String modes(Pattern p, String sql) {
        Matcher m = p.matcher(sql);
        return m.matches() ? m.group(1).trim().replaceAll("\\s+", " ") : null;
    }

    private static int level(String words) {
        return switch (words) {
            case "SERIALIZABLE" -> Connection.TRANSACTION_SERIALIZABLE;
            case "REPEATABLE READ" -> Connection.TRANSACTION_REPEATABLE_READ;
            case "READ COMMITTED" -> Connection.TRANSACTION_READ_COMMITTED;
            case "READ UNCOMMITTED" -> Connection.TRANSACTION_READ_UNCOMMITTED;
            default -> NOT_ISOLATION;
        };
    }
}
