package org.raidb.driver.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * The DESCRIPTION frame, the answer to DESCRIBE ({@link DescribeFrame}): a statement's parameters and,
 * when it returns rows, its result columns, as a backend described them without running it.
 *
 * <pre>
 * int32 paramCount | paramCount x parameter | byte hasColumns | [int32 columnCount | columnCount x column]
 * </pre>
 *
 * @param columns null when the statement returns no rows (an INSERT without RETURNING)
 */
public record StatementDescription(List<ParameterInfo> parameters, List<ColumnInfo> columns) {

    public void write(PayloadWriter w) {
        w.begin(Protocol.DESCRIPTION).writeInt(parameters.size());
        for (ParameterInfo p : parameters) {
            p.write(w);
        }
        w.writeBoolean(columns != null);
        if (columns != null) {
            w.writeInt(columns.size());
            for (ColumnInfo c : columns) {
                c.write(w);
            }
        }
    }

    public static StatementDescription read(PayloadReader r) throws ProtocolException {
        int n = r.readCount(29); // three ints, two strings, a byte and two more ints
        List<ParameterInfo> parameters = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            parameters.add(ParameterInfo.read(r));
        }
        List<ColumnInfo> columns = null;
        if (r.readBoolean()) {
            int c = r.readCount(37); // as in a rowset header
            columns = new ArrayList<>(c);
            for (int i = 0; i < c; i++) {
                columns.add(ColumnInfo.read(r));
            }
        }
        return new StatementDescription(List.copyOf(parameters), columns == null ? null : List.copyOf(columns));
    }
}
