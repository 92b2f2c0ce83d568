package org.raidb.tpcw.cli;

import org.raidb.tpcw.play.ConnectionFactory;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** --url, --user, --password: the database a command talks to. */
final class ConnectionOptions {

    @Option(
            names = "--url",
            required = true,
            paramLabel = "JDBC_URL",
            description = "Any JDBC URL: jdbc:postgresql://host:5432/tpcw, jdbc:raidb://controller:25322/tpcw, ...")
    String url;

    @Mixin
    CredentialOptions credentials;

    ConnectionFactory factory() {
        return new ConnectionFactory(url, credentials.user, credentials.password);
    }
}
