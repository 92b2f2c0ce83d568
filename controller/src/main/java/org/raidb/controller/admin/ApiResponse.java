package org.raidb.controller.admin;

/**
 * A status and a body that Jackson writes as JSON.
 *
 * @param afterSent run once the response is on the wire (the shutdown endpoint answers before stopping the server)
 */
record ApiResponse(int status, Object body, Runnable afterSent) {

    ApiResponse(int status, Object body) {
        this(status, body, null);
    }

    static ApiResponse ok(Object body) {
        return new ApiResponse(200, body);
    }

    ApiResponse afterSending(Runnable action) {
        return new ApiResponse(status, body, action);
    }
}
