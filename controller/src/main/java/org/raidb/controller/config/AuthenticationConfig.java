package org.raidb.controller.config;

import java.util.List;

/** The {@code <authentication>} element: one admin and any number of virtual users. */
public record AuthenticationConfig(UserCredentials admin, List<UserCredentials> virtualUsers) {}
