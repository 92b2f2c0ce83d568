package org.raidb.controller.tree;

import java.sql.Connection;
import java.sql.SQLException;
import org.raidb.driver.DriverInfo;

/** What a connection to a backend tells of a child controller behind it. */
public final class ChildControllers {
    private ChildControllers() {}

    /**
     * Whether {@code c} leads to another controller (through the RAIDb driver) rather than to a database:
     * a catalogue query is then answered by one of the child's backends, which may hold only some of its
     * tables (defaults.ChildCatalogReader completes what it left out).
     */
    public static boolean reached(Connection c) throws SQLException {
        return DriverInfo.DRIVER_NAME.equals(c.getMetaData().getDriverName());
    }
}
