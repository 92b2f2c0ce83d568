package org.raidb.driver.protocol;

/** Tags for values on the wire. The tag says how the bytes that follow are laid out. */
public final class ValueType {
    public static final byte NULL = 0; // followed by int32 java.sql.Types hint
    public static final byte BOOLEAN = 1; // byte 0/1
    public static final byte INT = 2; // int32
    public static final byte LONG = 3; // int64
    public static final byte FLOAT = 4; // float32
    public static final byte DOUBLE = 5; // float64
    public static final byte DECIMAL = 6; // string (BigDecimal.toString)
    public static final byte STRING = 7; // string
    public static final byte BYTES = 8; // int32 length + bytes
    public static final byte DATE = 9; // int64 epoch day (LocalDate)
    public static final byte TIME = 10; // int64 nano of day (LocalTime)
    public static final byte TIMESTAMP = 11; // int64 epoch second + int32 nano, zone-less (LocalDateTime)
    public static final byte TIMESTAMP_TZ =
            12; // int64 epoch second + int32 nano + int32 offset seconds (OffsetDateTime)
    public static final byte UUID = 13; // two int64
    public static final byte SHORT = 14; // int16
    public static final byte TIME_TZ = 15; // int64 nano of day + int32 offset seconds (OffsetTime)
    public static final byte OTHER = 16; // string type name + string text: json, intervals, anything else
    public static final byte ARRAY = 17; // string element type name + int32 n + n values (a nested ARRAY per dimension)

    private static final String[] NAMES = {
        "NULL",
        "BOOLEAN",
        "INT",
        "LONG",
        "FLOAT",
        "DOUBLE",
        "DECIMAL",
        "STRING",
        "BYTES",
        "DATE",
        "TIME",
        "TIMESTAMP",
        "TIMESTAMP_TZ",
        "UUID",
        "SHORT",
        "TIME_TZ",
        "OTHER",
        "ARRAY"
    };

    private ValueType() {}

    /** The tag's name as docs/protocol.md writes it, for messages. */
    public static String name(byte tag) {
        return tag >= 0 && tag < NAMES.length ? NAMES[tag] : "tag " + tag;
    }
}
