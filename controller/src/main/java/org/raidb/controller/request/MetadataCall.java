package org.raidb.controller.request;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
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
        DatabaseBackend b;
        try {
            b = vdb.balancer().readBackend(ANY_BACKEND, vdb.backends());
        } catch (NoBackendAvailableException e) {
            throw new SQLException(
                    "virtual database " + vdb.name() + " has no enabled backend to answer metadata calls",
                    SqlStates.CONNECTION_FAILURE);
        }
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
                    "DatabaseMetaData." + methodName + " refused its arguments " + args + ": " + e.getCause(),
                    SqlStates.INVALID_PARAMETER_VALUE,
                    e.getCause());
        } catch (IllegalAccessException e) {
            throw new SQLException("metadata call " + methodName + " failed: " + e, SqlStates.INTERNAL_ERROR, e);
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
