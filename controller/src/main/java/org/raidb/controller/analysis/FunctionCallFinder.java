package org.raidb.controller.analysis;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * The functions a parsed statement calls, by JSqlParser's own walk of it: select list, WHERE, FROM
 * (table functions), joins, HAVING, subqueries, WITH queries, window functions. That walk skips some
 * clauses (GROUP BY, ORDER BY, LIMIT, DISTINCT ON, WINDOW), so the analyser adds the names {@link
 * StatementSplitter} found written as calls in the text.
 */
final class FunctionCallFinder extends TablesNamesFinder<Void> {
    private final Set<String> calls = new LinkedHashSet<>();

    /** Lower-case, unqualified, unquoted names. */
    static Set<String> calls(Statement statement) {
        FunctionCallFinder finder = new FunctionCallFinder();
        finder.getTables(statement);
        return finder.calls;
    }

    @Override
    public <S> Void visit(Function function, S context) {
        add(function.getMultipartName());
        return super.visit(function, context);
    }

    @Override
    public <S> Void visit(AnalyticExpression analytic, S context) {
        add(List.of(analytic.getName()));
        return super.visit(analytic, context);
    }

    private void add(List<String> multipartName) {
        if (multipartName == null || multipartName.isEmpty()) {
            return;
        }
        String name = multipartName.get(multipartName.size() - 1);
        if (name == null) {
            return;
        }
        if (name.length() >= 2
                && (name.charAt(0) == '"' || name.charAt(0) == '`')
                && name.endsWith(name.substring(0, 1))) {
            name = name.substring(1, name.length() - 1);
        }
        calls.add(name.toLowerCase(Locale.ROOT));
    }
}
