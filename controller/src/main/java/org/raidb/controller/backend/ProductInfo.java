package org.raidb.controller.backend;

/** The database product behind a backend, reported to clients so they pick the right SQL dialect. */
public record ProductInfo(String name, String version, int majorVersion, int minorVersion, String identifierQuote) {}
