package org.raidb.controller.admin;

/** A request the admin API refuses: its HTTP status and a message that names what was wrong. */
final class AdminException extends RuntimeException {
    private final int status;

    AdminException(int status, String message) {
        super(message);
        this.status = status;
    }

    int status() {
        return status;
    }

    static AdminException notFound(String message) {
        return new AdminException(404, message);
    }

    static AdminException forbidden(String message) {
        return new AdminException(403, message);
    }
}
