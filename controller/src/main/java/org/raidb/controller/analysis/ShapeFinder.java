package org.raidb.controller.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.insert.ConflictActionType;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.ForMode;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.update.UpdateSet;

/**
 * Reads a parsed write's {@link WriteShape}: the rows it names and the values it gives, by the
 * statement's syntax alone. Whatever it cannot read plainly (joins, subqueries, calls of functions
 * not known to read nothing, ORDER BY/LIMIT, row-valued assignments, expressions) leaves the rows
 * unknown or the value {@link SqlValue#UNKNOWN}, which the scheduler answers with a coarser class:
 * a wrong guess here would let two writes of one row run in different orders on two backends.
 */
final class ShapeFinder {
    private final UnaryOperator<String> names;

    /** @param names the analyser's canonical name of a table or sequence (cut as the backends cut it) */
    ShapeFinder(UnaryOperator<String> names) {
        this.names = names;
    }

    /** An INSERT, UPDATE or DELETE of {@code target}, which also reads {@code read}. */
    WriteShape write(Statement statement, Table target, Set<String> read) {
        ExpressionScan scan = ExpressionScan.of(statement, names);
        boolean opaque = scan.unknownCalls() || scan.queries() > 0;
        TargetRows rows;
        if (statement instanceof Insert insert) {
            rows = inserted(insert, target, opaque);
        } else if (statement instanceof Update update) {
            boolean joined = update.getFromItem() != null
                    || notEmpty(update.getJoins())
                    || notEmpty(update.getStartJoins())
                    || notEmpty(update.getOrderByElements())
                    || update.getLimit() != null
                    || notEmpty(update.getWithItemsList());
            rows = new TargetRows.Changed(
                    tableName(target),
                    schema(target),
                    TargetRows.Change.UPDATE,
                    opaque || joined ? null : pinned(update.getWhere(), target),
                    assignments(update.getUpdateSets()));
        } else {
            Delete delete = (Delete) statement;
            boolean joined = notEmpty(delete.getUsingList())
                    || notEmpty(delete.getJoins())
                    || notEmpty(delete.getTables())
                    || notEmpty(delete.getOrderByElements())
                    || delete.getLimit() != null
                    || notEmpty(delete.getWithItemsList());
            rows = new TargetRows.Changed(
                    tableName(target),
                    schema(target),
                    TargetRows.Change.DELETE,
                    opaque || joined ? null : pinned(delete.getWhere(), target),
                    Map.of());
        }
        return new WriteShape(rows, read, Set.of(), false, scan.sequences(), scan.anySequence(), Set.of());
    }

    /**
     * A SELECT that writes: it locks rows ({@code FOR UPDATE/SHARE}) or calls nextval/setval.
     *
     * @param locksRows whether the text holds a row-locking clause anywhere
     */
    WriteShape select(Select select, Set<String> read, boolean locksRows) {
        ExpressionScan scan = ExpressionScan.of(select, names);
        TargetRows rows = null;
        Set<String> locked = Set.of();
        boolean exclusive = true;
        if (locksRows) {
            ForMode mode = select instanceof PlainSelect p ? p.getForMode() : null;
            exclusive = mode == null || mode == ForMode.UPDATE || mode == ForMode.NO_KEY_UPDATE;
            if (select instanceof PlainSelect p
                    && mode != null
                    && p.getFromItem() instanceof Table t
                    && !notEmpty(p.getJoins())
                    && p.getForUpdateTable() == null
                    && scan.queries() == 1
                    && !scan.unknownCalls()
                    && p.getIntoTables() == null) {
                rows = new TargetRows.Changed(
                        tableName(t),
                        schema(t),
                        exclusive ? TargetRows.Change.LOCK_EXCLUSIVE : TargetRows.Change.LOCK_SHARED,
                        pinned(p.getWhere(), t),
                        Map.of());
                read = Set.of();
            } else {
                locked = read; // which rows of which tables it locks is not read here: all of them
                read = Set.of();
            }
        }
        return new WriteShape(rows, read, locked, exclusive, scan.sequences(), scan.anySequence(), Set.of());
    }

    private TargetRows.Inserted inserted(Insert insert, Table target, boolean opaque) {
        String table = tableName(target);
        String schema = schema(target);
        boolean upsert = insert.isUseDuplicate()
                || (insert.getConflictAction() != null
                        && insert.getConflictAction().getConflictActionType() == ConflictActionType.DO_UPDATE);
        if (insert.isUseSet()) {
            Map<String, SqlValue> set = assignments(insert.getSetUpdateSets());
            return new TargetRows.Inserted(
                    table,
                    schema,
                    List.copyOf(set.keySet()),
                    opaque ? null : List.of(List.copyOf(set.values())),
                    upsert);
        }
        List<String> columns = null;
        if (insert.getColumns() != null && !insert.getColumns().isEmpty()) {
            columns = new ArrayList<>();
            for (Column c : insert.getColumns()) {
                columns.add(column(c));
            }
        }
        List<List<SqlValue>> rows =
                opaque || notEmpty(insert.getWithItemsList()) || !(insert.getSelect() instanceof Values v)
                        ? null
                        : valueRows(v);
        return new TargetRows.Inserted(table, schema, columns, rows, upsert);
    }

    /** VALUES (a, b), (c, d): JSqlParser gives one row as its parenthesised list, several as a plain list of them. */
    private List<List<SqlValue>> valueRows(Values values) {
        ExpressionList<?> all = values.getExpressions();
        if (all == null || all.isEmpty()) {
            return null;
        }
        if (all instanceof ParenthesedExpressionList<?>) {
            return List.of(values(all));
        }
        List<List<SqlValue>> rows = new ArrayList<>(all.size());
        for (Object row : all) {
            if (!(row instanceof ParenthesedExpressionList<?> r)) {
                return null;
            }
            rows.add(values(r));
        }
        return rows;
    }

    private List<SqlValue> values(ExpressionList<?> list) {
        List<SqlValue> out = new ArrayList<>(list.size());
        for (Object e : list) {
            out.add(value((Expression) e));
        }
        return out;
    }

    /** SET a = v, b = w; a row-valued {@code (a, b) = (SELECT …)} gives its columns unknown values. */
    private Map<String, SqlValue> assignments(List<UpdateSet> sets) {
        Map<String, SqlValue> out = new LinkedHashMap<>();
        if (sets == null) {
            return out;
        }
        for (UpdateSet set : sets) {
            boolean pairwise = set.getColumns().size() == set.getValues().size();
            for (int i = 0; i < set.getColumns().size(); i++) {
                out.put(
                        column(set.getColumns().get(i)),
                        pairwise ? value((Expression) set.getValues().get(i)) : SqlValue.UNKNOWN);
            }
        }
        return out;
    }

    /**
     * The columns of {@code target} that the WHERE clause's top-level AND equates with plain values.
     * Leaving a conjunct out only widens the rows named, so whatever is not plainly an equality (OR,
     * ranges, functions, other tables' columns) is left out; a column pinned twice keeps its first values.
     */
    private Map<String, List<SqlValue>> pinned(Expression where, Table target) {
        Map<String, List<SqlValue>> out = new LinkedHashMap<>();
        List<Expression> conjuncts = new ArrayList<>();
        flattenAnd(where, conjuncts);
        for (Expression c : conjuncts) {
            if (c instanceof EqualsTo eq) {
                pin(unwrap(eq.getLeftExpression()), unwrap(eq.getRightExpression()), target, out);
                pin(unwrap(eq.getRightExpression()), unwrap(eq.getLeftExpression()), target, out);
            } else if (c instanceof InExpression in
                    && !in.isNot()
                    && in.getRightExpression() instanceof ParenthesedExpressionList<?> list) {
                pinIn(unwrap(in.getLeftExpression()), list, target, out);
            }
        }
        return out;
    }

    private void pin(Expression column, Expression value, Table target, Map<String, List<SqlValue>> out) {
        if (column instanceof Column c && ofTarget(c, target)) {
            SqlValue v = value(value);
            if (v != SqlValue.UNKNOWN) {
                out.putIfAbsent(column(c), List.of(v));
            }
        } else if (column instanceof ParenthesedExpressionList<?> cols
                && value instanceof ParenthesedExpressionList<?> vals
                && cols.size() == vals.size()) {
            for (int i = 0; i < cols.size(); i++) {
                pin(unwrap((Expression) cols.get(i)), unwrap((Expression) vals.get(i)), target, out);
            }
        }
    }

    /** {@code a IN (1, 2)}; {@code (a, b) IN ((1, 2), (3, 4))} pins a to 1 or 3 and b to 2 or 4, a superset. */
    private void pinIn(
            Expression left, ParenthesedExpressionList<?> list, Table target, Map<String, List<SqlValue>> out) {
        if (list.isEmpty()) {
            return;
        }
        if (left instanceof Column c && ofTarget(c, target)) {
            List<SqlValue> values = new ArrayList<>();
            for (Object e : list) {
                SqlValue v = value((Expression) e);
                if (v == SqlValue.UNKNOWN) {
                    return;
                }
                values.add(v);
            }
            out.putIfAbsent(column(c), List.copyOf(values));
        } else if (left instanceof ParenthesedExpressionList<?> cols) {
            for (int i = 0; i < cols.size(); i++) {
                List<Object> column = new ArrayList<>();
                for (Object tuple : list) {
                    if (!(tuple instanceof ParenthesedExpressionList<?> t) || t.size() != cols.size()) {
                        return;
                    }
                    column.add(t.get(i));
                }
                pinIn(
                        unwrap((Expression) cols.get(i)),
                        new ParenthesedExpressionList<>(column.toArray(new Expression[0])),
                        target,
                        out);
            }
        }
    }

    private static void flattenAnd(Expression e, List<Expression> out) {
        Expression x = unwrap(e);
        if (x instanceof AndExpression and) {
            flattenAnd(and.getLeftExpression(), out);
            flattenAnd(and.getRightExpression(), out);
        } else if (x != null) {
            out.add(x);
        }
    }

    /** {@code (x)} as {@code x}: JSqlParser 5 reads it as a list of one expression (its Parenthesis is never built). */
    private static Expression unwrap(Expression e) {
        Expression x = e;
        while (x instanceof ParenthesedExpressionList<?> l && l.size() == 1 && !(l.get(0) instanceof Column)) {
            x = (Expression) l.get(0);
        }
        return x;
    }

    /** A value as plainly written: literal, parameter, NULL, DEFAULT, nextval of a named sequence. */
    private SqlValue value(Expression expression) {
        Expression e = unwrap(expression);
        if (e instanceof LongValue || e instanceof DoubleValue) {
            return new SqlValue.Literal(e.toString(), false);
        }
        if (e instanceof SignedExpression s
                && (s.getExpression() instanceof LongValue || s.getExpression() instanceof DoubleValue)) {
            return s.getSign() == '-'
                    ? new SqlValue.Literal("-" + s.getExpression(), false)
                    : s.getSign() == '+'
                            ? new SqlValue.Literal(s.getExpression().toString(), false)
                            : SqlValue.UNKNOWN;
        }
        if (e instanceof StringValue s) {
            return s.getPrefix() == null ? new SqlValue.Literal(s.getNotExcapedValue(), true) : SqlValue.UNKNOWN;
        }
        if (e instanceof NullValue) {
            return SqlValue.NULL;
        }
        if (e instanceof JdbcParameter p && p.getIndex() != null) {
            return new SqlValue.Parameter(p.getIndex());
        }
        if (e instanceof Column c && c.getTable() == null && c.getColumnName().equalsIgnoreCase("DEFAULT")) {
            return SqlValue.DEFAULT;
        }
        String sequence = ExpressionScan.nextValueOf(e, names);
        return sequence != null ? new SqlValue.NextValue(sequence) : SqlValue.UNKNOWN;
    }

    /** Whether a column reference names the target: unqualified, or qualified by its name or alias. */
    private boolean ofTarget(Column c, Table target) {
        Table t = c.getTable();
        if (t == null || t.getName() == null) {
            return true;
        }
        String qualifier = TableNames.canonical(t.getName());
        if (target.getAlias() != null) {
            return qualifier.equals(TableNames.canonical(target.getAlias().getName()));
        }
        return qualifier.equals(TableNames.canonical(target.getName()));
    }

    private String tableName(Table t) {
        return names.apply(t.getFullyQualifiedName());
    }

    private static String schema(Table t) {
        return t.getSchemaName() == null ? null : TableNames.canonical(t.getSchemaName());
    }

    private static String column(Column c) {
        return TableNames.canonical(c.getColumnName());
    }

    private static boolean notEmpty(List<?> list) {
        return list != null && !list.isEmpty();
    }
}
