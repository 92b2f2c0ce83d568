package org.raidb.driver.protocol;

/**
 * Constants of the RAIDb wire protocol (documented in docs/protocol.md).
 *
 * <p>Every frame is {@code int32 length | byte type | payload}, where length counts the type byte
 * and the payload. Integers are big-endian, strings are {@code int32 byteLength | UTF-8 bytes}
 * with length -1 for null.
 */
public final class Protocol {
    /** "RAID" in ASCII: the first int of a HELLO or CANCEL frame, so that stray clients are told apart at once. */
    public static final int MAGIC = 0x52414944;
    /**
     * Bumped on any incompatible change; the controller refuses versions it does not speak. Version 2
     * added the ARRAY value, warnings in RESULTS and BATCH_RESULT, generated keys of a batch, DESCRIBE
     * and CLIENT_INFO.
     */
    public static final int VERSION = 2;

    public static final int DEFAULT_PORT = 25322;
    /** Frames larger than this are refused unread on both sides, unless configured otherwise. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 64 * 1024 * 1024;
    /** Rows per batch when the client sets no fetch size. */
    public static final int DEFAULT_FETCH_SIZE = 1000;

    // Client to controller.
    public static final byte HELLO = 'H';
    public static final byte CANCEL = 'X';
    public static final byte EXECUTE = 'E';
    public static final byte FETCH = 'F';
    public static final byte CLOSE_CURSOR = 'C';
    public static final byte BATCH = 'B';
    public static final byte TRANSACTION = 'T';
    public static final byte METADATA = 'M';
    public static final byte PING = 'P';
    public static final byte CLOSE = 'Q';
    public static final byte DESCRIBE = 'D';
    public static final byte CLIENT_INFO = 'I';

    // Controller to client.
    public static final byte HELLO_OK = 'h';
    public static final byte RESULTS = 'r';
    public static final byte ROWS = 'w';
    public static final byte BATCH_RESULT = 'b';
    public static final byte OK = 'k';
    public static final byte ERROR = 'e';
    public static final byte DESCRIPTION = 'd';

    // EXECUTE modes: what the client expects back.
    public static final byte MODE_QUERY = 1;
    public static final byte MODE_UPDATE = 2;
    public static final byte MODE_ANY = 3;

    // EXECUTE flags.
    public static final int FLAG_RETURN_GENERATED_KEYS = 1;
    /**
     * The statement comes from a CallableStatement (a call escape such as {@code {call f(..)}} is
     * translated by the driver into a SELECT): the controller runs it as a call, on every backend in
     * the write order, since a function may write. Controllers that predate the flag ignore it.
     */
    public static final int FLAG_CALL = 2;
    /**
     * The client turned escape processing off (Statement.setEscapeProcessing(false)): the text is run
     * as it is, JDBC escapes included. With escape processing on, the driver has translated them.
     */
    public static final int FLAG_NO_ESCAPE_PROCESSING = 4;

    /**
     * HELLO_OK server info key: present (value "1") when the controller takes the client session id of HELLO
     * and the request tags ({@link RequestTag}), remembers recent outcomes and answers outcome-only queries.
     * A driver asks a controller without it nothing but plain requests.
     */
    public static final String REMEMBERS_OUTCOMES = "remembersOutcomes";

    /** The client property that names the session's backend connections (pgjdbc's ApplicationName). */
    public static final String APPLICATION_NAME = "ApplicationName";

    // Result kinds inside RESULTS.
    public static final byte RESULT_UPDATE_COUNT = 0;
    public static final byte RESULT_ROWS = 1;

    // TRANSACTION operations.
    public static final byte TX_SET_AUTOCOMMIT = 1;
    public static final byte TX_COMMIT = 2;
    public static final byte TX_ROLLBACK = 3;
    public static final byte TX_SET_SAVEPOINT = 4;
    public static final byte TX_ROLLBACK_TO_SAVEPOINT = 5;
    public static final byte TX_RELEASE_SAVEPOINT = 6;
    public static final byte TX_SET_ISOLATION = 7;
    public static final byte TX_SET_READ_ONLY = 8;

    private Protocol() {}
}
