package org.raidb.controller.config;

/**
 * What one client may cost the controller before and around login: the {@code <controller>} attributes
 * that bound hostile or broken clients (docs/configuration.md, "Connection limits").
 *
 * @param preLoginMaxFrameBytes largest frame accepted before a client has logged in (capped at maxFrameBytes): a
 *     HELLO is a few hundred bytes, so nobody unauthenticated can make the controller read much
 * @param handshakeTimeoutMillis time a new connection has, in total, to complete its HELLO (or CANCEL) frame
 * @param loginAttemptsBeforeDelay failed logins from one address, or on one user, before further attempts are delayed
 * @param loginMaxDelayMillis longest delay between login attempts once they are delayed; 0 turns throttling off
 * @param clientErrorLogIntervalMillis a client error of one kind from one address is logged at most once per interval,
 *     the next line counting those left out; 0 logs every one
 */
public record ClientLimits(
        int preLoginMaxFrameBytes,
        int handshakeTimeoutMillis,
        int loginAttemptsBeforeDelay,
        int loginMaxDelayMillis,
        int clientErrorLogIntervalMillis) {

    public static final ClientLimits DEFAULT = new ClientLimits(
            ConfigDefaults.PRE_LOGIN_MAX_FRAME_BYTES,
            ConfigDefaults.HANDSHAKE_TIMEOUT_MILLIS,
            ConfigDefaults.LOGIN_ATTEMPTS_BEFORE_DELAY,
            ConfigDefaults.LOGIN_MAX_DELAY_MILLIS,
            ConfigDefaults.CLIENT_ERROR_LOG_INTERVAL_MILLIS);
}
