package org.raidb.tpcw.cli;

import picocli.CommandLine.Option;

/** --user, --password: how a command logs in to the databases it talks to. */
final class CredentialOptions {

    @Option(names = "--user", defaultValue = "postgres", description = "Database user (default ${DEFAULT-VALUE}).")
    String user;

    @Option(names = "--password", defaultValue = "", description = "Password (default empty).")
    String password;
}
