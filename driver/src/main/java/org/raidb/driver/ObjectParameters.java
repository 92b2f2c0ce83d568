package org.raidb.driver;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.util.UUID;
import org.raidb.driver.protocol.SqlArray;
import org.raidb.driver.protocol.SqlNull;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.driver.protocol.TypedText;

/**
 * setObject of values that are not plain wire values: the SQL type of an object given without one,
 * arrays, and text of no stated type ({@code Types.OTHER}), each as pgjdbc treats it.
 */
final class ObjectParameters {
    /** pgjdbc's SQLState for a value whose type cannot be inferred. */
    private ObjectParameters() {}

    /**
     * setObject(int, Object): the value as the wire carries it. Java arrays and java.sql.Array become
     * SQL arrays; pgjdbc's own PGobject (json, interval... when pgjdbc is on the class path too) its
     * typed text; an object whose SQL type neither driver can tell is refused, as pgjdbc refuses it.
     */
    static Object inferred(Object x) throws SQLException {
        Object v = ParameterConversions.normalize(x);
        if (isWireValue(v)) {
            return v;
        }
        if (v instanceof java.sql.Array || v.getClass().isArray()) {
            return array(v);
        }
        Object typed = typedObject(v);
        if (typed != null) {
            return typed;
        }
        if (v instanceof Number n) {
            return new BigDecimal(n.toString()); // AtomicLong, LongAdder...: a numeric, as pgjdbc's setNumber
        }
        throw DriverErrors.of(
                "Can't infer the SQL type to use for an instance of "
                        + v.getClass().getName()
                        + ". Use setObject() with an explicit Types value to specify the type to use.",
                SqlStates.RESTRICTED_DATA_TYPE_VIOLATION);
    }

    /** Text of no stated type, whose type the server infers from where it goes, as pgjdbc's setObject(x, OTHER) sends. */
    static Object untyped(Object v) throws SQLException {
        if (v instanceof String s) {
            return new TypedText(null, s);
        }
        if (v instanceof UUID || v instanceof SqlArray) {
            return v;
        }
        Object typed = typedObject(v);
        return typed != null ? typed : new TypedText(null, ValueConversions.toText(inferred(v)));
    }

    static SqlArray array(Object v) throws SQLException {
        if (v instanceof SqlArray a) {
            return a;
        }
        if (v instanceof java.sql.Array a) {
            return RaidbArray.toWire(a);
        }
        if (v.getClass().isArray() && !(v instanceof byte[])) {
            Class<?> component = v.getClass().getComponentType();
            while (component.isArray() && component != byte[].class) {
                component = component.getComponentType();
            }
            String elementType = PgTypes.elementTypeOf(component);
            if (elementType != null) {
                return RaidbArray.of(elementType, v).wire();
            }
        }
        throw DriverErrors.of(
                "Cannot cast an instance of " + v.getClass().getName() + " to type Types.ARRAY",
                SqlStates.RESTRICTED_DATA_TYPE_VIOLATION);
    }

    private static boolean isWireValue(Object v) {
        return v instanceof String
                || v instanceof Integer
                || v instanceof Long
                || v instanceof Boolean
                || v instanceof Short
                || v instanceof Double
                || v instanceof Float
                || v instanceof BigDecimal
                || v instanceof byte[]
                || v instanceof LocalDate
                || v instanceof LocalTime
                || v instanceof LocalDateTime
                || v instanceof OffsetDateTime
                || v instanceof OffsetTime
                || v instanceof UUID
                || v instanceof TypedText
                || v instanceof SqlNull
                || v instanceof SqlArray;
    }

    /**
     * Our interval and SQLXML, and pgjdbc's PGobject and its subclasses (PGInterval...), found by name so
     * that the driver does not depend on pgjdbc: their type name and text (a typed NULL for a PGobject
     * without a value); null for anything else.
     */
    private static Object typedObject(Object v) throws SQLException {
        if (v instanceof RaidbInterval i) {
            return new TypedText("interval", i.getValue());
        }
        if (v instanceof java.sql.SQLXML x) {
            return new TypedText("xml", x.getString());
        }
        for (Class<?> c = v.getClass(); c != null; c = c.getSuperclass()) {
            if (c.getName().equals("org.postgresql.util.PGobject")) {
                try {
                    Object type = c.getMethod("getType").invoke(v);
                    Object value = c.getMethod("getValue").invoke(v);
                    return value == null ? SqlNull.of(Types.OTHER) : new TypedText((String) type, (String) value);
                } catch (ReflectiveOperationException | ClassCastException e) {
                    return null;
                }
            }
        }
        return null;
    }
}
