package org.raidb.driver;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.driver.sql.SqlLexer;
import org.raidb.driver.sql.SqlSyntax;
import org.raidb.driver.sql.TokenKind;

/**
 * The JDBC call escape, translated in the driver into a PostgreSQL query so that the controller
 * handles a call like any other statement:
 *
 * <ul>
 *   <li>{@code {call f(a, b)}} becomes {@code select * from f(a, b)}: the function's result columns
 *       (its OUT parameters, or its single value) are the result row;
 *   <li>{@code {? = call f(a)}} becomes {@code select f(a)}: the value is the one result column.
 * </ul>
 *
 * An argument that is a lone {@code ?} registered as OUT and never set is dropped from the call,
 * because PostgreSQL functions take only their IN arguments. Text that is not a call escape is
 * used as it is.
 */
final class CallEscape {
    private final boolean returnsValue;
    private final String function;
    private final List<String> arguments;
    /** For each argument, the 1-based parameter indexes of the placeholders it holds. */
    private final List<int[]> argumentParameters;

    private final int parameterCount;

    private CallEscape(boolean returnsValue, String function, List<String> arguments) {
        this.returnsValue = returnsValue;
        this.function = function;
        this.arguments = arguments;
        this.argumentParameters = new ArrayList<>();
        int next = returnsValue ? 2 : 1;
        for (String argument : arguments) {
            int n = SqlText.countParameters(argument);
            int[] indexes = new int[n];
            for (int i = 0; i < n; i++) {
                indexes[i] = next++;
            }
            argumentParameters.add(indexes);
        }
        this.parameterCount = next - 1;
    }

    /**
     * The parsed escape, or null if {@code sql} is not a call escape: {@code { [? =] call name [(args)]
     * } [;]}, read with {@link SqlLexer} so that parentheses and commas in literals do not count.
     */
    static CallEscape parse(String sql) throws SQLException {
        String trimmed = sql.trim();
        if (!trimmed.startsWith("{")) {
            return null;
        }
        SqlLexer lexer = new SqlLexer(trimmed, SqlSyntax.POSTGRESQL);
        lexer.next(); // the brace
        TokenKind k = lexer.nextCode();
        boolean returnsValue = k == TokenKind.PARAMETER;
        if (returnsValue) {
            lexer.nextCode();
            if (!lexer.isSymbol('=')) {
                throw malformed(sql);
            }
            lexer.nextCode();
        }
        if (!lexer.isWord("call")) {
            throw malformed(sql);
        }
        StringBuilder function = new StringBuilder();
        for (k = lexer.nextCode();
                k != TokenKind.END && !lexer.isSymbol('(') && k != TokenKind.ESCAPE_CLOSE;
                k = lexer.nextCode()) {
            function.append(trimmed, lexer.start(), lexer.end());
        }
        List<String> arguments = new ArrayList<>();
        if (lexer.isSymbol('(')) {
            int open = lexer.end();
            int close = closingParenthesis(lexer);
            if (close < 0) {
                throw malformed(sql);
            }
            String args = trimmed.substring(open, close);
            if (!args.isBlank()) {
                for (String a : SqlText.splitTopLevel(args)) {
                    arguments.add(a.trim());
                }
            }
            lexer.nextCode();
        }
        if (function.length() == 0 || lexer.kind() != TokenKind.ESCAPE_CLOSE) {
            throw malformed(sql);
        }
        if (lexer.nextCode() != TokenKind.END && (!lexer.isSymbol(';') || lexer.nextCode() != TokenKind.END)) {
            throw malformed(sql);
        }
        return new CallEscape(returnsValue, function.toString(), arguments);
    }

    /** The start of the parenthesis closing the one the lexer is on; -1 if none does. */
    private static int closingParenthesis(SqlLexer lexer) {
        int depth = 1;
        for (TokenKind k = lexer.nextCode(); k != TokenKind.END; k = lexer.nextCode()) {
            depth += lexer.isSymbol('(') ? 1 : lexer.isSymbol(')') ? -1 : 0;
            if (depth == 0) {
                return lexer.start();
            }
        }
        return -1;
    }

    private static SQLException malformed(String sql) {
        return DriverErrors.of(
                "Malformed function or procedure escape syntax at offset 0: " + sql, SqlStates.SYNTAX_ERROR);
    }

    /** Whether parameter 1 is the function's value ({@code ? = call}). */
    boolean returnsValue() {
        return returnsValue;
    }

    /** Placeholders of the escape, the {@code ? =} one included: what the application numbers. */
    int parameterCount() {
        return parameterCount;
    }

    /** Whether the argument holding this parameter is a lone {@code ?}, which may be left out of the call. */
    boolean isLoneArgument(int parameterIndex) {
        for (int i = 0; i < arguments.size(); i++) {
            int[] indexes = argumentParameters.get(i);
            if (indexes.length == 1 && indexes[0] == parameterIndex) {
                return "?".equals(arguments.get(i));
            }
        }
        return false;
    }

    /** The query, leaving out the lone-{@code ?} arguments of the given parameters. */
    String toSql(Set<Integer> omittedParameters) {
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < arguments.size(); i++) {
            int[] indexes = argumentParameters.get(i);
            boolean omitted =
                    indexes.length == 1 && "?".equals(arguments.get(i)) && omittedParameters.contains(indexes[0]);
            if (!omitted) {
                kept.add(arguments.get(i));
            }
        }
        String call = function + "(" + String.join(", ", kept) + ")";
        return returnsValue ? "select " + call : "select * from " + call;
    }

    @Override
    public String toString() {
        return toSql(Set.of());
    }
}
