package org.raidb.driver.protocol;

/**
 * What a client needs to know of one result column: enough to answer ResultSetMetaData the way the
 * backend's own driver would, so that ORMs and tools see the same types.
 */
public record ColumnInfo(
        String label,
        String name,
        String tableName,
        String schemaName,
        int jdbcType,
        String typeName,
        String className,
        int precision,
        int scale,
        int displaySize,
        int nullable,
        boolean autoIncrement,
        boolean signed,
        boolean caseSensitive) {

    public void write(PayloadWriter w) {
        w.writeString(label).writeString(name).writeString(tableName).writeString(schemaName);
        w.writeInt(jdbcType).writeString(typeName).writeString(className);
        w.writeInt(precision).writeInt(scale).writeInt(displaySize).writeInt(nullable);
        int flags = (autoIncrement ? 1 : 0) | (signed ? 2 : 0) | (caseSensitive ? 4 : 0);
        w.writeByte(flags);
    }

    public static ColumnInfo read(PayloadReader r) throws ProtocolException {
        String label = r.readString();
        String name = r.readString();
        String table = r.readString();
        String schema = r.readString();
        int jdbcType = r.readInt();
        String typeName = r.readString();
        String className = r.readString();
        int precision = r.readInt();
        int scale = r.readInt();
        int displaySize = r.readInt();
        int nullable = r.readInt();
        int flags = r.readByte();
        return new ColumnInfo(
                label,
                name,
                table,
                schema,
                jdbcType,
                typeName,
                className,
                precision,
                scale,
                displaySize,
                nullable,
                (flags & 1) != 0,
                (flags & 2) != 0,
                (flags & 4) != 0);
    }

    /** A synthetic column for results the controller builds itself. */
    public static ColumnInfo simple(String label, int jdbcType, String typeName, String className) {
        return new ColumnInfo(
                label,
                label,
                "",
                "",
                jdbcType,
                typeName,
                className,
                0,
                0,
                32,
                java.sql.ResultSetMetaData.columnNullable,
                false,
                true,
                true);
    }
}
