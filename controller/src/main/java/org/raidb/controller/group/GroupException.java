package org.raidb.controller.group;

/** A controller group that cannot form or be joined; the message says why and what to do. */
public class GroupException extends Exception {
    private static final long serialVersionUID = 1L;

    public GroupException(String message) {
        super(message);
    }

    public GroupException(String message, Throwable cause) {
        super(message, cause);
    }
}
