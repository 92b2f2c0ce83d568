package org.raidb.tpcw.trace;

/** A trace file that cannot be played; the message names the file and the line. */
public final class TraceFormatException extends Exception {
    public TraceFormatException(String message) {
        super(message);
    }
}
