package org.raidb.driver.protocol;

/**
 * A value that is correctly framed but cannot be what its tag says: decimal text that is not a number,
 * a date beyond what java.time holds, an offset of more than 18 hours. The frame around it is intact,
 * so the receiver may answer with {@link #sqlState()} and read the next frame.
 */
public final class InvalidValueException extends ProtocolException {
    private final String sqlState;

    public InvalidValueException(String message, String sqlState) {
        super(message);
        this.sqlState = sqlState;
    }

    /** The SQLState of class 22 (data exception) that describes the value. */
    public String sqlState() {
        return sqlState;
    }
}
