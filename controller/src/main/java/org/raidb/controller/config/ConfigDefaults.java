package org.raidb.controller.config;

/**
 * Values used for attributes a configuration file leaves out. config/raidb.xsd documents the same values in its
 * {@code default="..."} attributes; ConfigDefaultsTest keeps the two in step.
 */
public final class ConfigDefaults {
  public static final String HOST = "0.0.0.0";
  public static final int PORT = 25322;
  public static final int ADMIN_PORT = 25380;
  public static final String DATA_DIR = "data";
  public static final int MAX_FRAME_BYTES = 64 * 1024 * 1024;

  public static final String PASSWORD = "";
  public static final int BACKEND_WEIGHT = 1;
  public static final int BACKEND_POOL_SIZE = 20;

  public static final String READ_POLICY = "roundRobin";
  public static final String COMPLETION = "all";
  /** Backends an error-checked read is sent to (raidb1ec, raidb2ec). */
  public static final int ERROR_CHECKING_NODES = 3;

  private ConfigDefaults() {}
}
