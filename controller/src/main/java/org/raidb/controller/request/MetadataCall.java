package org.raidb.controller.request;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.raidb.balancer.NoBackendAvailableException;
import org.raidb.balancer.Request;
import org.raidb.balancer.RequestKind;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.result.BackendValues;
import org.raidb.controller.result.MaterializedRows;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.transaction.Transaction;
import org.raidb.driver.protocol.SqlNull;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.driver.protocol.TypedText;

/**
 * Answers a client's DatabaseMetaData call by making the same call on one backend, so that tools see
 * the backend's own catalogue. Only methods returning a ResultSet travel; the driver answers the rest.
 */
public final class MetadataCall {
    private static final Request ANY_BACKEND =
            new Request(RequestKind.READ, Set.of(), Set.of(), true, 0, Set.of(), false);

    private MetadataCall() {}

    public static MaterializedRows call(BackendArray vdb, SessionState s, String methodName, List<Object> args)
            throws SQLException {
        Method method = find(methodName, args.size());
        Object[] javaArgs = convert(method, args);
        if (vdb.balancer().partial() && "getTables".equals(methodName)) {
            return everyBackendsTables(vdb, s, method, javaArgs);
        }
        DatabaseBackend b;
        try {
            b = vdb.balancer().readBackend(routing(vdb, javaArgs), vdb.backends());
        } catch (NoBackendAvailableException e) {
            throw new SQLException(
                    "virtual database " + vdb.name() + " has no enabled backend to answer metadata calls",
                    SqlStates.CONNECTION_FAILURE);
        }
        return callOn(vdb, b, s, method, javaArgs);
    }

    /**
     * Where the backends hold different tables (RAIDb-0, -2), a call about one table (getColumns,
     * getPrimaryKeys, getIndexInfo, …: the third argument) goes to a backend holding it, so that a
     * client, a parent controller or a jdbcCopy backup sees its columns and keys.
     */
    private static Request routing(BackendArray vdb, Object[] javaArgs) {
        if (vdb.balancer().partial()
                && javaArgs.length > 2
                && javaArgs[2] instanceof String table
                && vdb.backends().stream().anyMatch(b -> b.isEnabled() && b.holdsTable(table))) {
            return new Request(RequestKind.READ, Set.of(table), Set.of(), false, 0, Set.of(), false);
        }
        return ANY_BACKEND;
    }

    /**
     * getTables where backends hold different tables: the union of every enabled backend's answer, one
     * row per schema and name, in the order JDBC specifies (type, catalogue, schema, name). Without it a
     * RAIDb-0 virtual database would list one backend's tables, and a parent controller using it as a
     * backend would route as if the others did not exist.
     */
    private static MaterializedRows everyBackendsTables(
            BackendArray vdb, SessionState s, Method method, Object[] javaArgs) throws SQLException {
        MaterializedRows merged = null;
        Map<List<String>, Object[]> rows = new TreeMap<>(MetadataCall::compareKeys);
        for (DatabaseBackend b : vdb.backends()) {
            if (!b.isEnabled()) {
                continue;
            }
            MaterializedRows one = callOn(vdb, b, s, method, javaArgs);
            merged = merged == null ? one : merged;
            for (Object[] row : one.rows()) {
                // TABLE_TYPE, TABLE_CAT, TABLE_SCHEM, TABLE_NAME: columns 4, 1, 2, 3.
                rows.putIfAbsent(Arrays.asList(text(row[3]), text(row[0]), text(row[1]), text(row[2])), row);
            }
        }
        if (merged == null) {
            throw new SQLException(
                    "virtual database " + vdb.name() + " has no enabled backend to answer metadata calls",
                    SqlStates.CONNECTION_FAILURE);
        }
        return new MaterializedRows(merged.columns(), new ArrayList<>(rows.values()));
    }

    private static String text(Object value) {
        return value == null || value instanceof SqlNull ? "" : value.toString();
    }

    private static int compareKeys(List<String> a, List<String> b) {
        for (int i = 0; i < a.size(); i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static MaterializedRows callOn(
            BackendArray vdb, DatabaseBackend b, SessionState s, Method method, Object[] javaArgs) throws SQLException {
        // Inside a transaction, use its connection so that tables it created are visible.
        Transaction tx = s.currentTransaction();
        Connection txConnection =
                tx == null || tx.lane(b) == null ? null : tx.lane(b).connection();
        BackendConnections conns = vdb.requests().connections();
        Connection c = txConnection != null ? txConnection : conns.borrow(b, s);
        try {
            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = (ResultSet) method.invoke(md, javaArgs)) {
                return BackendValues.materialize(rs);
            }
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof SQLException se) {
                throw se;
            }
            // The backend's driver refused the client's arguments in its own way (an unchecked exception).
            throw new SQLException(
                    "DatabaseMetaData." + method.getName() + " refused its arguments " + Arrays.deepToString(javaArgs)
                            + ": " + e.getCause(),
                    SqlStates.INVALID_PARAMETER_VALUE,
                    e.getCause());
        } catch (IllegalAccessException e) {
            throw new SQLException("metadata call " + method.getName() + " failed: " + e, SqlStates.INTERNAL_ERROR, e);
        } finally {
            if (txConnection == null) {
                conns.giveBack(c, s);
            }
        }
    }

    private static Method find(String name, int argCount) throws SQLException {
        for (Method m : DatabaseMetaData.class.getMethods()) {
            if (m.getName().equals(name)
                    && m.getParameterCount() == argCount
                    && ResultSet.class.equals(m.getReturnType())) {
                return m;
            }
        }
        throw new SQLException(
                "DatabaseMetaData." + name + " with " + argCount + " arguments is not a metadata call the "
                        + "controller answers",
                SqlStates.FEATURE_NOT_SUPPORTED);
    }

    private static Object[] convert(Method m, List<Object> args) throws SQLException {
        Class<?>[] types = m.getParameterTypes();
        Object[] out = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            Object a = args.get(i);
            if (a instanceof SqlNull) {
                a = null;
            }
            Class<?> t = types[i];
            if (t == String[].class) {
                out[i] = a == null
                        ? null
                        : a instanceof TypedText tt
                                ? (tt.text() == null ? null : tt.text().split(",", -1))
                                : new String[] {a.toString()};
            } else if (t == String.class) {
                out[i] = a == null ? null : a.toString();
            } else if (t == int.class || t == short.class) {
                if (!(a instanceof Number n)) {
                    throw badArgument(m, i, a);
                }
                out[i] = t == int.class ? (Object) n.intValue() : (Object) n.shortValue();
            } else if (t == boolean.class) {
                if (!(a instanceof Boolean)) {
                    throw badArgument(m, i, a);
                }
                out[i] = a;
            } else if (t == int[].class) {
                out[i] = a == null ? null : intArray(m, i, a);
            } else {
                throw badArgument(m, i, a);
            }
        }
        return out;
    }

    /** An {@code int[]} argument: OTHER text of comma-separated numbers. */
    private static int[] intArray(Method m, int i, Object a) throws SQLException {
        if (!(a instanceof TypedText t) || t.text() == null) {
            throw badArgument(m, i, a);
        }
        try {
            return java.util.Arrays.stream(t.text().split(","))
                    .mapToInt(n -> Integer.parseInt(n.trim()))
                    .toArray();
        } catch (NumberFormatException e) {
            throw new SQLException(
                    "argument " + (i + 1) + " of DatabaseMetaData." + m.getName() + " must be comma-separated "
                            + "integers, not \"" + t.text() + "\"",
                    SqlStates.INVALID_TEXT_REPRESENTATION);
        }
    }

    private static SQLException badArgument(Method m, int i, Object a) {
        return new SQLException(
                "argument " + (i + 1) + " of DatabaseMetaData." + m.getName() + " cannot be " + a,
                SqlStates.INVALID_PARAMETER_VALUE);
    }
}
