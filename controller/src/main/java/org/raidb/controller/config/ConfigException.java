package org.raidb.controller.config;

/** A configuration file that cannot be used; the message names the file, the line and what is wrong. */
public class ConfigException extends Exception {
    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
