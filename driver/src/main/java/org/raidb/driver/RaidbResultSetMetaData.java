package org.raidb.driver;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import org.raidb.driver.protocol.ColumnInfo;

/** Column descriptions as the backend's own driver gave them to the controller (see {@link ColumnInfo}). */
public class RaidbResultSetMetaData implements ResultSetMetaData {
    private final List<ColumnInfo> columns;

    RaidbResultSetMetaData(List<ColumnInfo> columns) {
        this.columns = columns;
    }

    private ColumnInfo column(int column) throws SQLException {
        if (column < 1 || column > columns.size()) {
            throw DriverErrors.indexOutOfRange(column, columns.size());
        }
        return columns.get(column - 1);
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    @Override
    public int getColumnCount() {
        return columns.size();
    }

    @Override
    public boolean isAutoIncrement(int column) throws SQLException {
        return column(column).autoIncrement();
    }

    @Override
    public boolean isCaseSensitive(int column) throws SQLException {
        return column(column).caseSensitive();
    }

    @Override
    public boolean isSearchable(int column) throws SQLException {
        column(column);
        return true;
    }

    @Override
    public boolean isCurrency(int column) throws SQLException {
        return "money".equalsIgnoreCase(column(column).typeName());
    }

    @Override
    public int isNullable(int column) throws SQLException {
        return column(column).nullable();
    }

    @Override
    public boolean isSigned(int column) throws SQLException {
        return column(column).signed();
    }

    @Override
    public int getColumnDisplaySize(int column) throws SQLException {
        return column(column).displaySize();
    }

    @Override
    public String getColumnLabel(int column) throws SQLException {
        return orEmpty(column(column).label());
    }

    @Override
    public String getColumnName(int column) throws SQLException {
        ColumnInfo c = column(column);
        // pgjdbc answers the label here too unless told otherwise; fall back to it when the name is unknown.
        return c.name() == null || c.name().isEmpty() ? orEmpty(c.label()) : c.name();
    }

    @Override
    public String getSchemaName(int column) throws SQLException {
        return orEmpty(column(column).schemaName());
    }

    @Override
    public int getPrecision(int column) throws SQLException {
        return column(column).precision();
    }

    @Override
    public int getScale(int column) throws SQLException {
        return column(column).scale();
    }

    @Override
    public String getTableName(int column) throws SQLException {
        return orEmpty(column(column).tableName());
    }

    @Override
    public String getCatalogName(int column) throws SQLException {
        column(column);
        return "";
    }

    @Override
    public int getColumnType(int column) throws SQLException {
        return column(column).jdbcType();
    }

    @Override
    public String getColumnTypeName(int column) throws SQLException {
        return orEmpty(column(column).typeName());
    }

    @Override
    public boolean isReadOnly(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public boolean isWritable(int column) throws SQLException {
        column(column);
        return true;
    }

    @Override
    public boolean isDefinitelyWritable(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public String getColumnClassName(int column) throws SQLException {
        ColumnInfo c = column(column);
        if (c.className() != null && !c.className().isEmpty()) {
            return c.className();
        }
        return c.jdbcType() == Types.OTHER ? String.class.getName() : Object.class.getName();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw DriverErrors.of(
                "Cannot unwrap to " + iface.getName(), org.raidb.driver.protocol.SqlStates.INVALID_PARAMETER_VALUE);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
