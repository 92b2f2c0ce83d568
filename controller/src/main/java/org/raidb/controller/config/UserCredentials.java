package org.raidb.controller.config;

/** A name and password, as written in {@code <admin>} or {@code <virtualUser>}. */
public record UserCredentials(String name, String password) {}
