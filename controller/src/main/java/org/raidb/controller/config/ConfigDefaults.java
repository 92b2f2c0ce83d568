package org.raidb.controller.config;

/**
 * Values used for attributes a configuration file leaves out. config/raidb.xsd documents the same values in its
 * {@code default="..."} attributes; ConfigDefaultsTest keeps the two in step.
 */
public final class ConfigDefaults {
    public static final String HOST = "0.0.0.0";
    public static final int PORT = 25322;
    public static final String ADMIN_HOST = "127.0.0.1";
    public static final int ADMIN_PORT = 25380;
    public static final String DATA_DIR = "data";
    public static final int MAX_FRAME_BYTES = 64 * 1024 * 1024;
    public static final int PRE_LOGIN_MAX_FRAME_BYTES = 64 * 1024;
    public static final int HANDSHAKE_TIMEOUT_MILLIS = 10_000;
    public static final int LOGIN_ATTEMPTS_BEFORE_DELAY = 10;
    public static final int LOGIN_MAX_DELAY_MILLIS = 30_000;
    public static final int CLIENT_ERROR_LOG_INTERVAL_MILLIS = 60_000;
    public static final int SHUTDOWN_TIMEOUT_MILLIS = 30_000;
    public static final boolean ALLOW_H2_BACKENDS_FROM_ADMIN = false;

    public static final String PASSWORD = "";
    public static final int BACKEND_WEIGHT = 1;
    public static final int BACKEND_POOL_SIZE = 20;

    public static final String READ_POLICY = "roundRobin";
    public static final String COMPLETION = "all";
    /** Backends an error-checked read is sent to (raidb1ec, raidb2ec). */
    public static final int ERROR_CHECKING_NODES = 3;

    /**
     * {@code <scheduler type>}: conflict classes (rows, unique values, foreign-key parents, sequences,
     * else tables) held from a transaction's first write of them to its end, deadlocks detected.
     */
    public static final String SCHEDULER = "optimisticTransaction";
    /** {@code <scheduler lockTimeout>}: milliseconds a write waits for a conflict class before 55P03. */
    public static final int LOCK_TIMEOUT_MILLIS = 30_000;

    /** {@code <determinism multiStatements>}: texts of several statements are classified from all of them. */
    public static final String MULTI_STATEMENTS = "allow";
    /** {@code <determinism onVolatileTrigger>}: a trigger calling now() and the like is warned about, not refused. */
    public static final String ON_VOLATILE_TRIGGER = "warn";

    private ConfigDefaults() {}
}
