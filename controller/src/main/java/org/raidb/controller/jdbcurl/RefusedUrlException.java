package org.raidb.controller.jdbcurl;

/** A JDBC URL the controller will not connect with; the message names what is refused and what is allowed. */
public final class RefusedUrlException extends Exception {
    RefusedUrlException(String message) {
        super(message);
    }
}
