package org.raidb.balancer;

/**
 * No enabled backend can serve a request. Thrown as such when no backend is enabled at all; the
 * subclasses say which other reason it is, so that the controller can answer each with its own
 * SQLState: {@link TableNotHeldException}, {@link TablesNotColocatedException},
 * {@link NotEnoughBackendsException}.
 */
public class NoBackendAvailableException extends Exception {
    public NoBackendAvailableException(String message) {
        super(message);
    }

    static NoBackendAvailableException noBackendEnabled() {
        return new NoBackendAvailableException("no backend is enabled; enable a backend before sending requests");
    }
}
