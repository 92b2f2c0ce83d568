package org.raidb.controller.pgwire;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.raidb.driver.sql.SqlLexer;
import org.raidb.driver.sql.SqlSyntax;
import org.raidb.driver.sql.TokenKind;

/**
 * A {@code COPY} as this front end runs it: rows from the client into a table ({@code FROM STDIN}), or a
 * table's or a query's rows to the client ({@code TO STDOUT}), in the text or CSV format. Both the current
 * option list ({@code WITH (FORMAT csv, HEADER)}) and the pre-9.0 syntax ({@code WITH CSV HEADER}) that
 * older clients still send are read. A file or program on the server is refused: here the server is the
 * controller, which has none of the backends' files, and a file name would mean a different file on each.
 *
 * @param in rows come from the client ({@code FROM STDIN})
 * @param table the table as the client wrote it (quotes and schema kept), null for {@code COPY (query) TO}
 * @param columns the column list as written, empty for every column
 * @param query the query of {@code COPY (query) TO STDOUT}, else null
 */
record PgCopyStatement(boolean in, String table, List<String> columns, String query, PgCopyFormat format) {

    private static final String SYNTAX = "42601";
    private static final String NOT_SUPPORTED = "0A000";

    /** Whether the statement is a COPY (which the simple query protocol runs as a copy, not as SQL). */
    static boolean isCopy(String sql) {
        return PgCommandTag.command(sql).equals("COPY");
    }

    static PgCopyStatement parse(String sql) throws SQLException {
        Tokens t = new Tokens(sql);
        t.expectWord("COPY");
        String table = null;
        String query = null;
        List<String> columns = new ArrayList<>();
        if (t.symbol('(')) {
            int from = t.lexer.start(); // the query's first token, already read
            int close = t.skipParenthesised();
            query = sql.substring(from, close).trim();
        } else {
            table = t.qualifiedName();
            if (t.symbol('(')) {
                do {
                    columns.add(t.name("a column name"));
                } while (t.symbol(','));
                t.expectSymbol(')');
            }
        }
        boolean in;
        if (t.word("FROM")) {
            in = true;
        } else if (t.word("TO")) {
            in = false;
        } else {
            throw t.error("FROM or TO");
        }
        if (query != null && in) {
            throw new SQLException("COPY (query) FROM is not allowed: copy into a table", SYNTAX);
        }
        if (!t.word(in ? "STDIN" : "STDOUT")) {
            if (t.lexer.kind() == TokenKind.STRING || t.lexer.isWord("PROGRAM")) {
                throw new SQLException(
                        "COPY " + (in ? "FROM" : "TO") + " a file or program is not supported through RAIDb: the file"
                                + " would be read on the controller, not on the backends; use COPY ... "
                                + (in ? "FROM STDIN" : "TO STDOUT") + " (psql: \\copy)",
                        NOT_SUPPORTED);
            }
            throw t.error(in ? "STDIN" : "STDOUT");
        }
        PgCopyFormat.Builder format = new PgCopyFormat.Builder();
        t.word("WITH");
        if (t.symbol('(')) {
            options(t, format);
        } else {
            legacyOptions(t, format);
        }
        if (t.word("WHERE")) {
            throw new SQLException(
                    "COPY FROM ... WHERE is not supported through RAIDb: copy the rows into a staging table and"
                            + " INSERT ... SELECT from it",
                    NOT_SUPPORTED);
        }
        t.symbol(';');
        if (t.lexer.kind() != TokenKind.END) {
            throw t.error("the end of the statement");
        }
        return new PgCopyStatement(in, table, List.copyOf(columns), query, format.build());
    }

    /** {@code ( option [value] [, ...] )}, the form of PostgreSQL 9.0 on. */
    private static void options(Tokens t, PgCopyFormat.Builder format) throws SQLException {
        do {
            String option = t.name("an option name").toLowerCase(Locale.ROOT);
            switch (option) {
                case "format" -> format.format(t.name("a format").toLowerCase(Locale.ROOT));
                case "delimiter" -> format.delimiter(t.string("DELIMITER"));
                case "null" -> format.nullString(t.string("NULL"));
                case "header" -> format.header(t.optionalBoolean("HEADER"));
                case "quote" -> format.quote(t.string("QUOTE"));
                case "escape" -> format.escape(t.string("ESCAPE"));
                case "encoding" -> format.encoding(t.string("ENCODING"));
                case "freeze" -> t.optionalBoolean("FREEZE"); // a hint to PostgreSQL's storage: each backend decides
                case "force_quote", "force_not_null", "force_null" ->
                    throw new SQLException(
                            "COPY option " + option.toUpperCase(Locale.ROOT) + " is not supported through RAIDb",
                            NOT_SUPPORTED);
                default -> throw new SQLException("option \"" + option + "\" not recognized", SYNTAX);
            }
        } while (t.symbol(','));
        t.expectSymbol(')');
    }

    /** {@code [BINARY] [DELIMITER [AS] 'c'] [NULL [AS] 's'] [CSV [HEADER] [QUOTE [AS] 'q'] [ESCAPE [AS] 'e']]}. */
    private static void legacyOptions(Tokens t, PgCopyFormat.Builder format) throws SQLException {
        while (true) {
            if (t.word("BINARY")) {
                format.format("binary");
            } else if (t.word("DELIMITER")) {
                t.word("AS");
                format.delimiter(t.string("DELIMITER"));
            } else if (t.word("NULL")) {
                t.word("AS");
                format.nullString(t.string("NULL"));
            } else if (t.word("CSV")) {
                format.format("csv");
            } else if (t.word("HEADER")) {
                format.header(true);
            } else if (t.word("QUOTE")) {
                t.word("AS");
                format.quote(t.string("QUOTE"));
            } else if (t.word("ESCAPE")) {
                t.word("AS");
                format.escape(t.string("ESCAPE"));
            } else if (t.word("FORCE")) {
                throw new SQLException("COPY option FORCE is not supported through RAIDb", NOT_SUPPORTED);
            } else {
                return;
            }
        }
    }

    /** The statement's tokens, code only, with the expectations COPY's grammar has of them. */
    private static final class Tokens {
        final SqlLexer lexer;

        Tokens(String sql) {
            lexer = new SqlLexer(sql, SqlSyntax.POSTGRESQL);
            lexer.nextCode();
        }

        boolean word(String w) {
            if (lexer.isWord(w)) {
                lexer.nextCode();
                return true;
            }
            return false;
        }

        void expectWord(String w) throws SQLException {
            if (!word(w)) {
                throw error(w);
            }
        }

        boolean symbol(char c) {
            if (lexer.isSymbol(c)) {
                lexer.nextCode();
                return true;
            }
            return false;
        }

        void expectSymbol(char c) throws SQLException {
            if (!symbol(c)) {
                throw error("\"" + c + "\"");
            }
        }

        /** A name as written (quotes kept), so that it goes to the backends as the client meant it. */
        String name(String what) throws SQLException {
            if (lexer.kind() != TokenKind.WORD && lexer.kind() != TokenKind.QUOTED_IDENTIFIER) {
                throw error(what);
            }
            String n = lexer.text();
            lexer.nextCode();
            return n;
        }

        String qualifiedName() throws SQLException {
            StringBuilder n = new StringBuilder(name("a table name"));
            while (symbol('.')) {
                n.append('.').append(name("a name after \".\""));
            }
            return n.toString();
        }

        /** A string literal's value, for options that take one character or string. */
        String string(String option) throws SQLException {
            if (lexer.kind() != TokenKind.STRING || !lexer.text().startsWith("'")) {
                throw error("a quoted string after " + option);
            }
            String v = lexer.identifier();
            lexer.nextCode();
            return v;
        }

        /** {@code HEADER}, {@code HEADER true}, {@code HEADER off}, ... */
        boolean optionalBoolean(String option) throws SQLException {
            if (lexer.isSymbol(',') || lexer.isSymbol(')')) {
                return true;
            }
            String v = (lexer.kind() == TokenKind.STRING ? lexer.identifier() : lexer.text()).toLowerCase(Locale.ROOT);
            lexer.nextCode();
            return switch (v) {
                case "true", "on", "1" -> true;
                case "false", "off", "0" -> false;
                default -> throw new SQLException(option + " requires a Boolean value, not " + v, SYNTAX);
            };
        }

        /** Past a parenthesised query (the opening one already read); where its closing parenthesis starts. */
        int skipParenthesised() throws SQLException {
            int depth = 1;
            while (lexer.kind() != TokenKind.END) {
                if (lexer.isSymbol('(')) {
                    depth++;
                } else if (lexer.isSymbol(')') && --depth == 0) {
                    int close = lexer.start();
                    lexer.nextCode();
                    return close;
                }
                lexer.nextCode();
            }
            throw error("\")\" after the query");
        }

        SQLException error(String expected) {
            String at = lexer.kind() == TokenKind.END ? "end of input" : "\"" + lexer.text() + "\"";
            return new SQLException("syntax error in COPY at " + at + ": expected " + expected, SYNTAX);
        }
    }
}
