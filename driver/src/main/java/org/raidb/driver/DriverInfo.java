package org.raidb.driver;

/** The driver's identity, as DatabaseMetaData and java.sql.Driver report it. */
public final class DriverInfo {
    public static final String DRIVER_NAME = "RAIDb JDBC Driver";
    public static final int MAJOR_VERSION = 0;
    public static final int MINOR_VERSION = 1;
    public static final String DRIVER_VERSION = MAJOR_VERSION + "." + MINOR_VERSION + ".0";

    private DriverInfo() {}
}
