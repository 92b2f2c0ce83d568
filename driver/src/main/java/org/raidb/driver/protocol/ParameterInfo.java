package org.raidb.driver.protocol;

/**
 * What a backend says of one parameter of a prepared statement (its driver's ParameterMetaData),
 * so that the client's ParameterMetaData answers as the backend's own driver would.
 */
public record ParameterInfo(
        int jdbcType,
        String typeName,
        String className,
        int precision,
        int scale,
        int nullable,
        boolean signed,
        int mode) {

    public void write(PayloadWriter w) {
        w.writeInt(jdbcType)
                .writeString(typeName)
                .writeString(className)
                .writeInt(precision)
                .writeInt(scale);
        w.writeInt(nullable).writeBoolean(signed).writeInt(mode);
    }

    public static ParameterInfo read(PayloadReader r) throws ProtocolException {
        int jdbcType = r.readInt();
        String typeName = r.readString();
        String className = r.readString();
        int precision = r.readInt();
        int scale = r.readInt();
        int nullable = r.readInt();
        boolean signed = r.readBoolean();
        return new ParameterInfo(jdbcType, typeName, className, precision, scale, nullable, signed, r.readInt());
    }
}
