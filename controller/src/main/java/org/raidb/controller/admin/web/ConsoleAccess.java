package org.raidb.controller.admin.web;

/**
 * What the console's session says about an admin API request: it carries no console cookie (the API then asks for
 * HTTP Basic as usual), or it is a logged-in console's request, or it is refused with a status and message.
 */
public final class ConsoleAccess<P> {
    private final P admin;
    private final int status;
    private final String refusal;

    private ConsoleAccess(P admin, int status, String refusal) {
        this.admin = admin;
        this.status = status;
        this.refusal = refusal;
    }

    static <P> ConsoleAccess<P> noSession() {
        return new ConsoleAccess<>(null, 0, null);
    }

    static <P> ConsoleAccess<P> granted(P admin) {
        return new ConsoleAccess<>(admin, 200, null);
    }

    static <P> ConsoleAccess<P> refused(int status, String message) {
        return new ConsoleAccess<>(null, status, message);
    }

    /** True when the request carries no console cookie: not the console's business. */
    public boolean noConsoleSession() {
        return admin == null && refusal == null;
    }

    /** The logged-in administrator; null unless the session was found and the request is not refused. */
    public P admin() {
        return admin;
    }

    /** Null unless refused. */
    public String refusal() {
        return refusal;
    }

    public int status() {
        return status;
    }
}
