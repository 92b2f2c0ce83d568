package org.raidb.controller.config;

/** A {@code <login>}: the real backend user a virtual user acts as on one backend. */
public record LoginConfig(String virtualUser, String user, String password) {}
