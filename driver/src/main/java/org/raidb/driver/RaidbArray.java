package org.raidb.driver;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.raidb.driver.protocol.ColumnInfo;
import org.raidb.driver.protocol.RowsetCodec;
import org.raidb.driver.protocol.SqlArray;
import org.raidb.driver.protocol.SqlStates;

/**
 * An SQL array held in the driver: one read from a result (the server's text form, parsed) or one
 * made by {@code Connection.createArrayOf} or {@code setObject} of a Java array. It answers as
 * pgjdbc's PgArray does: typed Java arrays ({@code Integer[]}, {@code Integer[][]}...), a base type
 * name such as {@code int4}, and a result set of {@code INDEX}, {@code VALUE} rows.
 */
public final class RaidbArray implements Array {
    private final SqlArray array;
    private final String text;
    private boolean freed;

    private RaidbArray(SqlArray array, String text) {
        this.array = array;
        this.text = text;
    }

    /** An array column's value: its type name ({@code _int4}) and the server's text for it. */
    static RaidbArray fromText(String arrayTypeName, String text) throws SQLException {
        return new RaidbArray(ArrayLiteral.parse(text, PgTypes.elementOf(arrayTypeName)), text);
    }

    /**
     * An array of {@code elements} (a Java array, possibly of arrays or of primitives) whose elements
     * have the type {@code typeName}.
     */
    static RaidbArray of(String typeName, Object elements) throws SQLException {
        if (typeName == null) {
            throw DriverErrors.of(
                    "An array needs the name of its element type.",
                    org.raidb.driver.protocol.SqlStates.INVALID_PARAMETER_VALUE);
        }
        SqlArray a = toSqlArray(PgTypes.canonical(typeName), elements);
        return new RaidbArray(a, ArrayLiteral.format(a));
    }

    /** The array of another driver, or of ours, in the form the wire carries. */
    static SqlArray toWire(Array x) throws SQLException {
        return x instanceof RaidbArray r ? r.array : toSqlArray(PgTypes.canonical(x.getBaseTypeName()), x.getArray());
    }

    private static SqlArray toSqlArray(String elementType, Object elements) throws SQLException {
        if (elements == null || !elements.getClass().isArray()) {
            throw DriverErrors.of(
                    "Array elements must be a Java array, not " + elements,
                    org.raidb.driver.protocol.SqlStates.INVALID_PARAMETER_VALUE);
        }
        int n = java.lang.reflect.Array.getLength(elements);
        List<Object> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Object e = java.lang.reflect.Array.get(elements, i);
            boolean nested = e != null && e.getClass().isArray() && !(e instanceof byte[]);
            out.add(e == null ? null : nested ? toSqlArray(elementType, e) : ParameterConversions.normalize(e));
        }
        return new SqlArray(elementType, java.util.Collections.unmodifiableList(out));
    }

    SqlArray wire() {
        return array;
    }

    private void checkFreed() throws SQLException {
        if (freed) {
            throw DriverErrors.of("This Array has been freed.", SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE);
        }
    }

    @Override
    public String getBaseTypeName() throws SQLException {
        checkFreed();
        return array.elementTypeName();
    }

    @Override
    public int getBaseType() throws SQLException {
        checkFreed();
        return PgTypes.jdbcType(array.elementTypeName());
    }

    @Override
    public Object getArray() throws SQLException {
        return getArray(1, Integer.MAX_VALUE);
    }

    @Override
    public Object getArray(Map<String, Class<?>> map) throws SQLException {
        checkNoMap(map);
        return getArray();
    }

    /** {@code count} elements of the first dimension from the 1-based {@code index}. */
    @Override
    public Object getArray(long index, int count) throws SQLException {
        checkFreed();
        List<Object> slice = slice(index, count);
        return javaArray(slice, array.depth(), PgTypes.elementClass(array.elementTypeName()));
    }

    @Override
    public Object getArray(long index, int count, Map<String, Class<?>> map) throws SQLException {
        checkNoMap(map);
        return getArray(index, count);
    }

    @Override
    public ResultSet getResultSet() throws SQLException {
        return getResultSet(1, Integer.MAX_VALUE);
    }

    @Override
    public ResultSet getResultSet(Map<String, Class<?>> map) throws SQLException {
        checkNoMap(map);
        return getResultSet();
    }

    /** Rows of {@code INDEX} (1-based, within the whole array) and {@code VALUE} (an element, or a sub-array). */
    @Override
    public ResultSet getResultSet(long index, int count) throws SQLException {
        checkFreed();
        String elementType = array.elementTypeName();
        boolean nested = array.depth() > 1;
        ColumnInfo value = nested
                ? ColumnInfo.simple("VALUE", Types.ARRAY, "_" + elementType, Array.class.getName())
                : ColumnInfo.simple(
                        "VALUE",
                        PgTypes.jdbcType(elementType),
                        elementType,
                        PgTypes.elementClass(elementType).getName());
        List<Object[]> rows = new ArrayList<>();
        List<Object> slice = slice(index, count);
        for (int i = 0; i < slice.size(); i++) {
            Object e = slice.get(i);
            Object v = e instanceof SqlArray inner ? new RaidbArray(inner, ArrayLiteral.format(inner)) : e;
            rows.add(new Object[] {(int) (index + i), v});
        }
        RowsetCodec.Rowset rowset = new RowsetCodec.Rowset(
                new RowsetCodec.Header(
                        0, List.of(ColumnInfo.simple("INDEX", Types.INTEGER, "int4", Integer.class.getName()), value)),
                new RowsetCodec.Batch(rows, true));
        return new RaidbResultSet(null, null, rowset, 0, 0);
    }

    @Override
    public ResultSet getResultSet(long index, int count, Map<String, Class<?>> map) throws SQLException {
        checkNoMap(map);
        return getResultSet(index, count);
    }

    @Override
    public void free() {
        freed = true;
    }

    /** The PostgreSQL text form, as pgjdbc's PgArray shows. */
    @Override
    public String toString() {
        return text;
    }

    private List<Object> slice(long index, int count) throws SQLException {
        List<Object> all = array.elements();
        if (index < 1 || index > Math.max(all.size(), 1)) {
            throw DriverErrors.of(
                    "The array index is out of range: " + index + ", number of elements: " + all.size() + ".",
                    SqlStates.DATA_EXCEPTION);
        }
        int from = (int) Math.min(index - 1, all.size());
        int to = (int) Math.min((long) from + Math.max(count, 0), all.size());
        return all.subList(from, to);
    }

    private static void checkNoMap(Map<String, Class<?>> map) throws SQLException {
        if (map != null && !map.isEmpty()) {
            throw DriverErrors.notSupported("Array element type maps");
        }
    }

    /** A Java array of {@code depth} dimensions of {@code elementClass}, holding the JDBC form of each element. */
    private static Object javaArray(List<Object> elements, int depth, Class<?> elementClass) throws SQLException {
        Class<?> component = depth == 1
                ? elementClass
                : java.lang.reflect.Array.newInstance(elementClass, new int[depth - 1])
                        .getClass();
        Object[] out = (Object[]) java.lang.reflect.Array.newInstance(component, elements.size());
        for (int i = 0; i < out.length; i++) {
            Object e = elements.get(i);
            if (e instanceof SqlArray inner) {
                out[i] = javaArray(inner.elements(), depth - 1, elementClass);
            } else if (e != null) {
                Object v =
                        e instanceof Short ? e : ValueConversions.toJdbcObject(e); // pgjdbc keeps int2 elements Short
                if (!elementClass.isInstance(v)) {
                    throw DriverErrors.badValue(
                            elementClass.getSimpleName(), ValueConversions.toText(v), SqlStates.DATA_EXCEPTION);
                }
                out[i] = v;
            }
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RaidbArray other && other.array.equals(array);
    }

    @Override
    public int hashCode() {
        return array.hashCode();
    }
}
