package org.raidb.balancer;

/**
 * Backends are enabled and hold the tables, but fewer than the configuration requires for this
 * request: a create-table rule asks for more copies than there are candidate backends, or error
 * checking cannot gather enough answers to vote. Too many backends are disabled or the
 * configuration asks for more than the cluster has.
 */
public class NotEnoughBackendsException extends NoBackendAvailableException {
    private final int required;
    private final int available;

    public NotEnoughBackendsException(String message, int required, int available) {
        super(message);
        this.required = required;
        this.available = available;
    }

    public int required() {
        return required;
    }

    public int available() {
        return available;
    }
}
