package org.raidb.driver;

import java.sql.JDBCType;
import java.sql.ParameterMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.raidb.driver.protocol.ParameterInfo;
import org.raidb.driver.protocol.SqlArray;
import org.raidb.driver.protocol.SqlNull;
import org.raidb.driver.protocol.SqlStates;

/**
 * Parameter descriptions: those a backend gave when it described the statement (DESCRIBE), or, for a
 * CallableStatement, what the driver can tell alone (the type of the values set, "unknown" for the
 * others).
 */
public class RaidbParameterMetaData implements ParameterMetaData {
    private final List<ParameterInfo> parameters;

    RaidbParameterMetaData(List<ParameterInfo> parameters) {
        this.parameters = List.copyOf(parameters);
    }

    /** What the driver can say of parameters without asking a backend: the types of the values set. */
    static RaidbParameterMetaData ofBoundValues(ParameterValues values) throws SQLException {
        List<ParameterInfo> out = new ArrayList<>(values.count());
        for (int i = 1; i <= values.count(); i++) {
            int type = values.isSet(i) ? typeOf(values.get(i)) : Types.OTHER;
            out.add(new ParameterInfo(
                    type,
                    JDBCType.valueOf(type).getName(),
                    Object.class.getName(),
                    0,
                    0,
                    ParameterMetaData.parameterNullableUnknown,
                    isSignedType(type),
                    ParameterMetaData.parameterModeIn));
        }
        return new RaidbParameterMetaData(out);
    }

    /** The java.sql.Types of a bound value, OTHER when the driver cannot tell. */
    static int typeOf(Object v) {
        if (v instanceof SqlNull n) {
            return n.sqlType() == Types.NULL ? Types.OTHER : n.sqlType();
        }
        if (v instanceof String) {
            return Types.VARCHAR;
        }
        if (v instanceof Integer) {
            return Types.INTEGER;
        }
        if (v instanceof Long) {
            return Types.BIGINT;
        }
        if (v instanceof Short) {
            return Types.SMALLINT;
        }
        if (v instanceof Boolean) {
            return Types.BOOLEAN;
        }
        if (v instanceof Float) {
            return Types.REAL;
        }
        if (v instanceof Double) {
            return Types.DOUBLE;
        }
        if (v instanceof java.math.BigDecimal) {
            return Types.NUMERIC;
        }
        if (v instanceof byte[]) {
            return Types.BINARY;
        }
        if (v instanceof java.time.LocalDate) {
            return Types.DATE;
        }
        if (v instanceof java.time.LocalTime) {
            return Types.TIME;
        }
        if (v instanceof java.time.LocalDateTime) {
            return Types.TIMESTAMP;
        }
        if (v instanceof java.time.OffsetDateTime) {
            return Types.TIMESTAMP_WITH_TIMEZONE;
        }
        if (v instanceof SqlArray) {
            return Types.ARRAY;
        }
        return Types.OTHER;
    }

    private static boolean isSignedType(int t) {
        return t == Types.INTEGER
                || t == Types.BIGINT
                || t == Types.SMALLINT
                || t == Types.REAL
                || t == Types.DOUBLE
                || t == Types.NUMERIC;
    }

    private ParameterInfo parameter(int param) throws SQLException {
        if (param < 1 || param > parameters.size()) {
            throw DriverErrors.indexOutOfRange(param, parameters.size());
        }
        return parameters.get(param - 1);
    }

    @Override
    public int getParameterCount() {
        return parameters.size();
    }

    @Override
    public int isNullable(int param) throws SQLException {
        return parameter(param).nullable();
    }

    @Override
    public boolean isSigned(int param) throws SQLException {
        return parameter(param).signed();
    }

    @Override
    public int getPrecision(int param) throws SQLException {
        return parameter(param).precision();
    }

    @Override
    public int getScale(int param) throws SQLException {
        return parameter(param).scale();
    }

    @Override
    public int getParameterType(int param) throws SQLException {
        return parameter(param).jdbcType();
    }

    @Override
    public String getParameterTypeName(int param) throws SQLException {
        return parameter(param).typeName();
    }

    @Override
    public String getParameterClassName(int param) throws SQLException {
        return parameter(param).className();
    }

    @Override
    public int getParameterMode(int param) throws SQLException {
        return parameter(param).mode();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw DriverErrors.of("Cannot unwrap to " + iface.getName(), SqlStates.INVALID_PARAMETER_VALUE);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
