package org.raidb.controller.analysis;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * The columns a query uses anywhere (select list, WHERE, joins, GROUP BY, ORDER BY, subqueries), by name
 * alone: for the result cache's column granularity, where an UPDATE that sets none of them cannot
 * change the query's result. Every identifier of the text counts as a column it uses (JSqlParser's
 * walk skips some clauses, ORDER BY among them); names are not tied to tables, so table names,
 * aliases and a column of the same name in another table count too: that only drops a cached result
 * more often than needed. A star ({@code *}, {@code t.*}, not {@code count(*)}) or a NATURAL join
 * uses every column.
 *
 * @param columns canonical (lower-case, unquoted) column names
 * @param allColumns the query uses {@code *} or {@code t.*}: every column of its tables
 * @param cacheable false when the query calls a function the analyser does not know to read nothing
 *     beyond its arguments (a user function may read tables the query does not name), or when the
 *     text cannot be parsed: its result must not be cached
 */
public record ReadColumns(Set<String> columns, boolean allColumns, boolean cacheable) {
    static final ReadColumns UNKNOWN = new ReadColumns(Set.of(), true, false);

    public ReadColumns {
        columns = Set.copyOf(columns);
    }

    static ReadColumns of(Statement statement, String sql) {
        Finder finder = new Finder();
        finder.getTables(statement);
        Set<String> words = identifiers(sql);
        return new ReadColumns(words, finder.allColumns || words.contains("natural"), !finder.unknownCalls);
    }

    /** The identifiers of a text, canonical, leaving out string literals and comments. */
    static Set<String> identifiers(String sql) {
        Set<String> words = new HashSet<>();
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'') {
                i = skipQuoted(sql, i, '\'');
            } else if (c == '"' || c == '`') {
                int end = skipQuoted(sql, i, c);
                words.add(sql.substring(i + 1, Math.max(i + 1, end - 1)).toLowerCase(Locale.ROOT));
                i = end;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (Character.isLetter(c) || c == '_') {
                int start = i;
                while (i < n
                        && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '$')) {
                    i++;
                }
                words.add(sql.substring(start, i).toLowerCase(Locale.ROOT));
            } else {
                i++;
            }
        }
        return words;
    }

    /** The index just past the quoted part starting at {@code start} (a doubled quote stays inside). */
    private static int skipQuoted(String sql, int start, char quote) {
        int i = start + 1;
        while (i < sql.length()) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return sql.length();
    }

    /** Whether an UPDATE that sets {@code written} may change what this query returns. */
    public boolean uses(Set<String> written) {
        if (allColumns) {
            return true;
        }
        for (String c : written) {
            if (columns.contains(c)) {
                return true;
            }
        }
        return false;
    }

    /** A column name as the cache compares it: the last part, unquoted, lower case. */
    public static String canonical(String name) {
        String n = name.strip();
        if (n.length() >= 2 && ((n.startsWith("\"") && n.endsWith("\"")) || (n.startsWith("`") && n.endsWith("`")))) {
            n = n.substring(1, n.length() - 1);
        }
        return n.toLowerCase(Locale.ROOT);
    }

    private static final class Finder extends TablesNamesFinder<Void> {
        private boolean allColumns;
        private boolean unknownCalls;

        @Override
        public <S> Void visit(AllColumns all, S context) {
            allColumns = true;
            return super.visit(all, context);
        }

        @Override
        public <S> Void visit(AllTableColumns all, S context) {
            allColumns = true;
            return super.visit(all, context);
        }

        @Override
        public <S> Void visit(Function function, S context) {
            String name = ReadOnlyFunctions.calledName(function);
            if (!ReadOnlyFunctions.contains(name)) {
                unknownCalls = true;
            }
            if (function.isAllColumns()
                    || (function.getParameters() != null
                            && function.getParameters().size() == 1
                            && function.getParameters().get(0) instanceof AllColumns)) {
                return null; // count(*): the number of rows, not their columns
            }
            return super.visit(function, context);
        }
    }
}
