package org.raidb.driver.protocol;

/**
 * The TRANSACTION frame, the JDBC Connection's transaction API: {@code byte op} then its argument,
 * answered by OK.
 *
 * <pre>
 * 1 set auto-commit  byte 0/1          5 rollback to savepoint  string name
 * 2 commit           -                 6 release savepoint      string name
 * 3 rollback         -                 7 set isolation          int32 java.sql.Connection level
 * 4 set savepoint    string name       8 set read-only          byte 0/1
 * </pre>
 *
 * then the request tag ({@link RequestTag}), when the request has an id.
 *
 * @param op one of the {@code Protocol.TX_} operations
 * @param on the argument of set auto-commit and set read-only
 * @param savepoint the argument of the savepoint operations
 * @param isolation the argument of set isolation
 * @param tag the request id, {@link RequestTag#NONE} when it has none
 */
public record TransactionFrame(byte op, boolean on, String savepoint, int isolation, RequestTag tag) {

    public TransactionFrame(byte op, boolean on, String savepoint, int isolation) {
        this(op, on, savepoint, isolation, RequestTag.NONE);
    }

    public TransactionFrame withTag(RequestTag newTag) {
        return new TransactionFrame(op, on, savepoint, isolation, newTag);
    }

    public static TransactionFrame autoCommit(boolean on) {
        return new TransactionFrame(Protocol.TX_SET_AUTOCOMMIT, on, null, 0);
    }

    public static TransactionFrame commit() {
        return new TransactionFrame(Protocol.TX_COMMIT, false, null, 0);
    }

    public static TransactionFrame rollback() {
        return new TransactionFrame(Protocol.TX_ROLLBACK, false, null, 0);
    }

    /**
     * A savepoint operation on the named savepoint.
     *
     * @param op {@link Protocol#TX_SET_SAVEPOINT}, {@link Protocol#TX_ROLLBACK_TO_SAVEPOINT} or {@link
     *     Protocol#TX_RELEASE_SAVEPOINT}
     */
    public static TransactionFrame savepoint(byte op, String name) {
        return new TransactionFrame(op, false, name, 0);
    }

    public static TransactionFrame isolation(int level) {
        return new TransactionFrame(Protocol.TX_SET_ISOLATION, false, null, level);
    }

    public static TransactionFrame readOnly(boolean on) {
        return new TransactionFrame(Protocol.TX_SET_READ_ONLY, on, null, 0);
    }

    public void write(PayloadWriter w) {
        w.begin(Protocol.TRANSACTION).writeByte(op);
        switch (op) {
            case Protocol.TX_SET_AUTOCOMMIT, Protocol.TX_SET_READ_ONLY -> w.writeBoolean(on);
            case Protocol.TX_SET_SAVEPOINT, Protocol.TX_ROLLBACK_TO_SAVEPOINT, Protocol.TX_RELEASE_SAVEPOINT ->
                w.writeString(savepoint);
            case Protocol.TX_SET_ISOLATION -> w.writeInt(isolation);
            default -> {} // commit and rollback take no argument
        }
        tag.write(w);
    }

    /** Reads the payload; an unknown operation is a protocol violation (its argument cannot be skipped). */
    public static TransactionFrame read(PayloadReader r) throws ProtocolException {
        byte op = r.readByte();
        TransactionFrame t = switch (op) {
            case Protocol.TX_SET_AUTOCOMMIT, Protocol.TX_SET_READ_ONLY ->
                new TransactionFrame(op, r.readBoolean(), null, 0);
            case Protocol.TX_COMMIT, Protocol.TX_ROLLBACK -> new TransactionFrame(op, false, null, 0);
            case Protocol.TX_SET_SAVEPOINT, Protocol.TX_ROLLBACK_TO_SAVEPOINT, Protocol.TX_RELEASE_SAVEPOINT ->
                new TransactionFrame(op, false, r.readString(), 0);
            case Protocol.TX_SET_ISOLATION -> new TransactionFrame(op, false, null, r.readInt());
            default -> throw new ProtocolException("unknown transaction operation " + op);
        };
        return t.withTag(RequestTag.read(r));
    }
}
