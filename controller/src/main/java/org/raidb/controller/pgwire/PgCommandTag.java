package org.raidb.controller.pgwire;

import java.util.Locale;
import java.util.Set;
import org.raidb.driver.sql.SqlLexer;
import org.raidb.driver.sql.SqlSyntax;
import org.raidb.driver.sql.TokenKind;

/**
 * The CommandComplete tag PostgreSQL gives a statement: {@code INSERT 0 n}, {@code UPDATE n}, {@code SELECT n}
 * (rows sent), {@code CREATE TABLE}, {@code BEGIN}… Clients read the count out of it (pgjdbc's update count,
 * psycopg's rowcount), and psql prints it.
 */
final class PgCommandTag {
    /** Words between CREATE and the object's kind that the tag leaves out. */
    private static final Set<String> CREATE_MODIFIERS =
            Set.of("OR", "REPLACE", "UNIQUE", "TEMP", "TEMPORARY", "UNLOGGED", "GLOBAL", "LOCAL");

    private PgCommandTag() {}

    /** The first word of the statement in upper case ("" for none): what decides its tag and its path here. */
    static String command(String sql) {
        SqlLexer lexer = new SqlLexer(sql, SqlSyntax.POSTGRESQL);
        return lexer.nextCode() == TokenKind.WORD ? lexer.text().toUpperCase(Locale.ROOT) : "";
    }

    /** The tag of a statement that returned {@code rows} rows, or changed {@code rows} rows (-1: no count). */
    static String of(String sql, long rows, boolean returnedRows) {
        SqlLexer lexer = new SqlLexer(sql, SqlSyntax.POSTGRESQL);
        String first = lexer.nextCode() == TokenKind.WORD ? lexer.text().toUpperCase(Locale.ROOT) : "";
        if (first.equals("WITH")) {
            first = dataCommandAfterWith(lexer, returnedRows);
        } else if (first.equals("VALUES") || first.equals("TABLE")) {
            first = "SELECT";
        }
        long n = Math.max(rows, 0);
        return switch (first) {
            case "INSERT" -> "INSERT 0 " + n;
            case "UPDATE", "DELETE", "MERGE", "SELECT", "FETCH", "MOVE", "COPY" -> first + " " + n;
            case "START" -> "START TRANSACTION";
            case "END" -> "COMMIT";
            case "ABORT" -> "ROLLBACK";
            case "CREATE" -> {
                String kind = objectKind(lexer);
                // CREATE TABLE … AS SELECT is tagged by the rows it wrote, as PostgreSQL tags it.
                yield kind.equals("TABLE") && rows >= 0 && asAtTopLevel(lexer) ? "SELECT " + n : first + " " + kind;
            }
            case "ALTER", "DROP" -> first + " " + objectKind(lexer);
            case "DEALLOCATE" -> lastWordIs(lexer, "ALL") ? "DEALLOCATE ALL" : first;
            case "DISCARD" ->
                lexer.nextCode() == TokenKind.WORD
                        ? "DISCARD "
                                + (lexer.isWord("TEMPORARY")
                                        ? "TEMP"
                                        : lexer.text().toUpperCase(Locale.ROOT))
                        : first;
            case "" -> returnedRows ? "SELECT " + n : "";
            default -> first;
        };
    }

    /**
     * The prepared statement a {@code DEALLOCATE [PREPARE] name} names, or null for {@code DEALLOCATE ALL};
     * a quoted name as it stands for.
     */
    static String deallocated(String sql) {
        SqlLexer lexer = new SqlLexer(sql, SqlSyntax.POSTGRESQL);
        lexer.nextCode(); // DEALLOCATE
        TokenKind k = lexer.nextCode();
        if (k == TokenKind.WORD && lexer.isWord("PREPARE")) {
            k = lexer.nextCode();
        }
        if (k == TokenKind.WORD && lexer.isWord("ALL")) {
            return null;
        }
        return k == TokenKind.QUOTED_IDENTIFIER
                ? lexer.identifier()
                : lexer.text().toLowerCase(Locale.ROOT);
    }

    private static boolean lastWordIs(SqlLexer lexer, String word) {
        boolean last = false;
        for (TokenKind k = lexer.nextCode(); k != TokenKind.END; k = lexer.nextCode()) {
            last = k == TokenKind.WORD && lexer.isWord(word);
        }
        return last;
    }

    /** A WITH … INSERT/UPDATE/DELETE is tagged by its data-changing statement; any other row source by SELECT. */
    private static String dataCommandAfterWith(SqlLexer lexer, boolean returnedRows) {
        int depth = 0;
        for (TokenKind k = lexer.nextCode(); k != TokenKind.END; k = lexer.nextCode()) {
            if (lexer.isSymbol('(')) {
                depth++;
            } else if (lexer.isSymbol(')')) {
                depth--;
            } else if (depth == 0
                    && k == TokenKind.WORD
                    && (lexer.isWord("INSERT") || lexer.isWord("UPDATE") || lexer.isWord("DELETE"))) {
                return lexer.text().toUpperCase(Locale.ROOT);
            }
        }
        return returnedRows ? "SELECT" : "";
    }

    /** Whether the word AS follows outside parentheses (CREATE TABLE t AS …, not a column's DEFAULT 'AS'). */
    private static boolean asAtTopLevel(SqlLexer lexer) {
        int depth = 0;
        for (TokenKind k = lexer.nextCode(); k != TokenKind.END; k = lexer.nextCode()) {
            if (lexer.isSymbol('(')) {
                depth++;
            } else if (lexer.isSymbol(')')) {
                depth--;
            } else if (depth == 0 && k == TokenKind.WORD && lexer.isWord("AS")) {
                return true;
            }
        }
        return false;
    }

    /** The object's kind: TABLE, INDEX, MATERIALIZED VIEW, FOREIGN TABLE… */
    private static String objectKind(SqlLexer lexer) {
        for (TokenKind k = lexer.nextCode(); k == TokenKind.WORD; k = lexer.nextCode()) {
            String w = lexer.text().toUpperCase(Locale.ROOT);
            if (w.equals("MATERIALIZED") || w.equals("FOREIGN")) {
                return w + " " + objectKind(lexer);
            }
            if (!CREATE_MODIFIERS.contains(w)) {
                return w;
            }
        }
        return "";
    }
}
