package org.raidb.controller.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import net.sf.jsqlparser.expression.StringValue;

/**
 * Analyses by {@link LiteralMask shape}: a text whose shape is known is analysed without a parse, its
 * literals put where the shape's parameter markers stood.
 *
 * <p>A shape stands for its texts only once it has earned it: the first {@link #CONFIRMATIONS} texts
 * of a shape are analysed in full as well, and each must come out exactly as the shape's analysis
 * with its literals put in. One that does not marks the shape as one whose literals matter (a
 * literal the analyser reads as more than a value, a marker the parser refuses where a literal was
 * allowed), and its texts are analysed one by one for good. An analysis of a shape holds nothing
 * that depends on its literals but through its markers, so a shape that came out right for two
 * texts comes out right for the others.
 */
final class ShapeAnalyses {
    /** How many texts of a shape must analyse exactly as the shape does before it stands for the others. */
    static final int CONFIRMATIONS = 2;

    private final int limit;
    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

    /** @param limit how many shapes are kept: past it the cache starts over, as the text cache does */
    ShapeAnalyses(int limit) {
        this.limit = limit;
    }

    private sealed interface Entry {}

    /** Analysed, with {@code confirmed} texts confirming it so far. */
    private record OnTrial(Analysis analysis, int confirmed) implements Entry {}

    private record Trusted(Analysis analysis) implements Entry {}

    /** Its literals matter: its texts are analysed one by one. */
    private record LiteralsMatter() implements Entry {}

    /** The analysis of the text {@code mask} came from, when its shape has earned it; null otherwise. */
    Analysis trusted(LiteralMask mask) {
        return entries.get(mask.shape()) instanceof Trusted t ? instantiate(t.analysis(), mask.literals()) : null;
    }

    /**
     * Weighs the shape against one text's full analysis while the shape is on trial.
     *
     * @param analyzeShape analyses the shape's text the first time it is met
     */
    void confirm(LiteralMask mask, Analysis full, Function<String, Analysis> analyzeShape) {
        Entry known = entries.get(mask.shape());
        if (known instanceof Trusted || known instanceof LiteralsMatter) {
            return;
        }
        if (known == null && entries.size() >= limit) {
            entries.clear(); // bounded as the text cache is
        }
        Entry trial = entries.computeIfAbsent(mask.shape(), shape -> new OnTrial(analyzeShape.apply(shape), 0));
        if (!(trial instanceof OnTrial onTrial)) {
            return;
        }
        boolean same = full.equals(instantiate(onTrial.analysis(), mask.literals()));
        entries.computeIfPresent(mask.shape(), (shape, now) -> {
            if (!(now instanceof OnTrial current)) {
                return now;
            }
            if (!same) {
                return new LiteralsMatter();
            }
            int confirmed = current.confirmed() + 1;
            return confirmed >= CONFIRMATIONS
                    ? new Trusted(current.analysis())
                    : new OnTrial(current.analysis(), confirmed);
        });
    }

    /** The shape's analysis with {@code literals} where its markers are; null when a marker has no literal. */
    static Analysis instantiate(Analysis shape, List<String> literals) {
        List<SqlValue> values = new ArrayList<>(literals.size());
        for (String literal : literals) {
            values.add(value(literal));
        }
        try {
            AnalyzedStatement plain = instantiate(shape.plain(), values);
            AnalyzedStatement ifCallsWrite =
                    shape.calls().isEmpty() ? plain : instantiate(shape.ifCallsWrite(), values);
            return new Analysis(plain, ifCallsWrite, shape.calls());
        } catch (IndexOutOfBoundsException e) {
            return null;
        }
    }

    /** A masked literal as the analyser reads it from a parsed text ({@code ShapeFinder}). */
    static SqlValue value(String literal) {
        if (literal.charAt(0) == '\'') {
            return new SqlValue.Literal(new StringValue(literal).getNotExcapedValue(), true);
        }
        return new SqlValue.Literal(literal, false);
    }

    private static AnalyzedStatement instantiate(AnalyzedStatement a, List<SqlValue> values) {
        WriteShape shape = a.shape();
        if (shape == null || shape.target() == null) {
            return a;
        }
        TargetRows target;
        if (shape.target() instanceof TargetRows.Inserted i) {
            target = new TargetRows.Inserted(i.table(), i.schema(), i.columns(), rows(i.rows(), values), i.upsert());
        } else {
            TargetRows.Changed c = (TargetRows.Changed) shape.target();
            target = new TargetRows.Changed(
                    c.table(), c.schema(), c.change(), pinned(c.pinned(), values), assigned(c.assignments(), values));
        }
        return a.withShape(new WriteShape(
                target,
                shape.tablesRead(),
                shape.tablesLocked(),
                shape.lockExclusive(),
                shape.sequencesCalled(),
                shape.anySequence(),
                shape.sequencesDefined()));
    }

    private static List<List<SqlValue>> rows(List<List<SqlValue>> rows, List<SqlValue> values) {
        if (rows == null) {
            return null;
        }
        List<List<SqlValue>> out = new ArrayList<>(rows.size());
        for (List<SqlValue> row : rows) {
            out.add(list(row, values));
        }
        return out;
    }

    private static Map<String, List<SqlValue>> pinned(Map<String, List<SqlValue>> pinned, List<SqlValue> values) {
        if (pinned == null) {
            return null;
        }
        Map<String, List<SqlValue>> out = new LinkedHashMap<>();
        pinned.forEach((column, list) -> out.put(column, list(list, values)));
        return out;
    }

    private static Map<String, SqlValue> assigned(Map<String, SqlValue> assignments, List<SqlValue> values) {
        Map<String, SqlValue> out = new LinkedHashMap<>();
        assignments.forEach((column, v) -> out.put(column, put(v, values)));
        return out;
    }

    private static List<SqlValue> list(List<SqlValue> list, List<SqlValue> values) {
        List<SqlValue> out = new ArrayList<>(list.size());
        for (SqlValue v : list) {
            out.add(put(v, values));
        }
        return out;
    }

    private static SqlValue put(SqlValue v, List<SqlValue> values) {
        return v instanceof SqlValue.Parameter p ? values.get(p.index() - 1) : v;
    }
}
