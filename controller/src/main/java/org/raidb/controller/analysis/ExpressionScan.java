package org.raidb.controller.analysis;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.UnaryOperator;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.NextValExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.LateralSubSelect;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.WithItem;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * What a write does beyond the rows it names, by JSqlParser's walk of the whole statement: queries
 * inside it (which read other rows), calls of functions the analyser does not know to read nothing,
 * and the sequences its nextval/setval calls draw from. Any of the first two makes the write's rows
 * unknowable from its text: it then conflicts with its whole table.
 */
final class ExpressionScan extends TablesNamesFinder<Void> {
    private static final Set<String> SEQUENCE_FUNCTIONS = Set.of("nextval", "setval");

    private final UnaryOperator<String> names;
    private int queries;
    private boolean unknownCalls;
    private boolean anySequence;
    private final Set<String> sequences = new LinkedHashSet<>();

    private ExpressionScan(UnaryOperator<String> names) {
        this.names = names;
    }

    /** @param names the analyser's canonical name of a table or sequence */
    static ExpressionScan of(Statement statement, UnaryOperator<String> names) {
        ExpressionScan scan = new ExpressionScan(names);
        scan.getTables(statement);
        return scan;
    }

    /** SELECTs, the statement's own included when it is one. */
    int queries() {
        return queries;
    }

    boolean unknownCalls() {
        return unknownCalls;
    }

    /** A sequence function whose sequence is not a literal name. */
    boolean anySequence() {
        return anySequence;
    }

    Set<String> sequences() {
        return sequences;
    }

    @Override
    public <S> Void visit(PlainSelect select, S context) {
        queries++;
        return super.visit(select, context);
    }

    @Override
    public <S> Void visit(ParenthesedSelect select, S context) {
        queries++;
        return super.visit(select, context);
    }

    @Override
    public <S> Void visit(SetOperationList select, S context) {
        queries++;
        return super.visit(select, context);
    }

    @Override
    public <S> Void visit(WithItem with, S context) {
        queries++;
        return super.visit(with, context);
    }

    @Override
    public <S> Void visit(LateralSubSelect select, S context) {
        queries++;
        return super.visit(select, context);
    }

    @Override
    public <S> Void visit(NextValExpression next, S context) {
        sequences.add(names.apply(next.getName()));
        return super.visit(next, context);
    }

    @Override
    public <S> Void visit(Function function, S context) {
        String name = ReadOnlyFunctions.calledName(function);
        if (SEQUENCE_FUNCTIONS.contains(name)) {
            String sequence = sequenceArgument(function);
            if (sequence == null) {
                anySequence = true;
            } else {
                sequences.add(sequence);
            }
        } else if (!ReadOnlyFunctions.contains(name)) {
            unknownCalls = true; // may read any row of any table
        }
        return super.visit(function, context);
    }

    /** The sequence a nextval/setval names: {@code 's'}, {@code 's'::regclass}, MariaDB's {@code s}; else null. */
    private String sequenceArgument(Function function) {
        if (function.getParameters() == null || function.getParameters().isEmpty()) {
            return null;
        }
        Expression first = (Expression) function.getParameters().get(0);
        if (first instanceof CastExpression cast) {
            first = cast.getLeftExpression();
        }
        if (first instanceof StringValue s && s.getPrefix() == null) {
            return names.apply(s.getNotExcapedValue());
        }
        if (first instanceof Column c) {
            return names.apply(c.getFullyQualifiedName());
        }
        return null;
    }

    /** The name of the sequence {@code nextval('s')} or {@code NEXT VALUE FOR s} draws from, or null. */
    static String nextValueOf(Expression e, UnaryOperator<String> names) {
        if (e instanceof NextValExpression next) {
            return names.apply(next.getName());
        }
        if (e instanceof Function f
                && f.getMultipartName() != null
                && f.getMultipartName().get(f.getMultipartName().size() - 1).equalsIgnoreCase("nextval")) {
            return new ExpressionScan(names).sequenceArgument(f);
        }
        return null;
    }
}
