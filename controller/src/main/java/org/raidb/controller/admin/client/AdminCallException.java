package org.raidb.controller.admin.client;

/** A call to the admin API that did not succeed: the controller was unreachable, or it answered with an error. */
public final class AdminCallException extends Exception {
    /** Status used when no HTTP answer came at all. */
    public static final int UNREACHABLE = 0;

    private final int status;

    AdminCallException(int status, String message) {
        super(message);
        this.status = status;
    }

    /** The HTTP status of the answer, or {@link #UNREACHABLE}. */
    public int status() {
        return status;
    }

    /** The console cannot work at all: no controller there, or it does not accept these credentials. */
    public boolean isConnectionProblem() {
        return status == UNREACHABLE || status == 401;
    }
}
