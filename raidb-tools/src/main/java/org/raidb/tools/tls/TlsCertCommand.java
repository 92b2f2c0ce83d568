package org.raidb.tools.tls;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.raidb.controller.cli.RaidbVersion;
import org.raidb.controller.config.EnvironmentReference;
import org.raidb.controller.tls.SelfSignedCertificate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code raidb tls-cert}: a self-signed certificate for trying TLS out: the controller's PKCS12 key store (for
 * {@code <tls keyStore>}) and the certificate alone in PEM (the driver's {@code sslrootcert}, {@code curl --cacert},
 * {@code raidb console --cacert}).
 *
 * <p>{@link SelfSignedCertificate} makes them with the JDK's keytool.
 */
@Command(
        name = "tls-cert",
        mixinStandardHelpOptions = true,
        versionProvider = RaidbVersion.class,
        description = "Make a self-signed certificate for trials: a PKCS12 key store for <tls keyStore> and the"
                + " certificate in PEM for sslrootcert, curl --cacert and raidb console --cacert.",
        footer = {
            "",
            "Self-signed: every client must be given the PEM file. For production, use a certificate from your CA."
        })
public final class TlsCertCommand implements Callable<Integer> {
    /** keytool refuses shorter PKCS12 passwords. */
    static final int MIN_PASSWORD_LENGTH = 6;

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern DNS_NAME = Pattern.compile(
            "(\\*\\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?" + "(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*");

    @Option(
            names = "--keystore",
            paramLabel = "FILE",
            defaultValue = "raidb.p12",
            description = "The PKCS12 key store to write (default ${DEFAULT-VALUE}).")
    Path keyStore;

    @Option(
            names = "--cert",
            paramLabel = "FILE",
            description = "The certificate in PEM to write (default: the key store's name with .pem).")
    Path certificate;

    @Option(
            names = "--hosts",
            paramLabel = "NAMES",
            split = ",",
            defaultValue = "localhost,127.0.0.1",
            description = "Host names and IP addresses clients connect by, comma-separated; the first is the"
                    + " subject's CN (default ${DEFAULT-VALUE}).")
    List<String> hosts;

    @Option(
            names = "--days",
            defaultValue = "365",
            description = "Days the certificate is valid from now (default ${DEFAULT-VALUE}).")
    int days;

    @Option(
            names = "--password",
            required = true,
            description = "The key store's password (at least " + MIN_PASSWORD_LENGTH + " characters), or ${NAME}"
                    + " to take it from the environment variable NAME, as <tls keyStorePassword> can.")
    String password;

    @Option(names = "--force", description = "Replace the files if they exist.")
    boolean force;

    @Spec
    CommandSpec spec;

    private final UnaryOperator<String> environment;

    public TlsCertCommand() {
        this(System::getenv);
    }

    TlsCertCommand(UnaryOperator<String> environment) {
        this.environment = environment;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (days < 1 || days > 36_500) {
            throw new ParameterException(spec.commandLine(), "--days must be between 1 and 36500, not " + days);
        }
        String secret = secret();
        Path pem = certificate != null ? certificate : pemBeside(keyStore);
        for (Path file : List.of(keyStore, pem)) {
            if (Files.exists(file) && !force) {
                throw new ParameterException(
                        spec.commandLine(), file + " exists: give other file names, or --force to replace it");
            }
        }
        String san = subjectAlternativeNames();
        Files.createDirectories(keyStore.toAbsolutePath().getParent());
        Files.createDirectories(pem.toAbsolutePath().getParent());
        SelfSignedCertificate.write(keyStore, pem, secret, hosts.get(0).strip(), san, null, days);
        report(pem, san);
        return 0;
    }

    private String secret() {
        Optional<String> variable = EnvironmentReference.variable(password);
        // Not Optional.map: an unset variable (null) must not fall back to the reference's text.
        String value = variable.isPresent() ? environment.apply(variable.get()) : password;
        if (value == null) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--password is " + password + ", but the environment has no " + variable.get() + ": set it");
        }
        if (value.length() < MIN_PASSWORD_LENGTH) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--password must have at least " + MIN_PASSWORD_LENGTH + " characters (keytool's minimum)");
        }
        return value;
    }

    /** keytool's SAN value: {@code dns:localhost,ip:127.0.0.1}. */
    private String subjectAlternativeNames() {
        List<String> entries = new ArrayList<>();
        for (String raw : hosts) {
            String host = raw.strip();
            if (IPV4.matcher(host).matches() || (host.contains(":") && host.matches("[0-9A-Fa-f:.]+"))) {
                entries.add("ip:" + host);
            } else if (DNS_NAME.matcher(host).matches() && host.length() <= 253) {
                entries.add("dns:" + host);
            } else {
                throw new ParameterException(
                        spec.commandLine(),
                        "--hosts: '" + raw + "' is neither a host name nor an IP address (give e.g."
                                + " db1.example.com,10.0.0.5)");
            }
        }
        return String.join(",", entries);
    }

    private static Path pemBeside(Path store) {
        String name = store.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return store.resolveSibling((dot > 0 ? name.substring(0, dot) : name) + ".pem");
    }

    private void report(Path pem, String san) {
        PrintWriter out = spec.commandLine().getOut();
        Optional<String> variable = EnvironmentReference.variable(password);
        out.println("key store   " + keyStore + " (PKCS12, alias controller, " + san + ", valid " + days + " days)");
        out.println("certificate " + pem + " (PEM: give it to clients)");
        out.println();
        out.println("In the controller's configuration, inside <controller>:");
        out.println("  <tls keyStore=\"" + keyStore.toAbsolutePath() + "\" keyStorePassword=\""
                + variable.map(v -> "${" + v + "}").orElse("YOUR PASSWORD, or ${VARIABLE}") + "\"/>");
        out.println("Clients:");
        out.println("  jdbc:raidb://" + hosts.get(0) + ":25322/VDB?sslmode=verify-full&sslrootcert="
                + pem.toAbsolutePath());
        out.println("  curl --cacert " + pem.toAbsolutePath() + " -u admin https://" + hosts.get(0)
                + ":25380/api/virtualdatabases");
        out.println("  raidb console --cacert " + pem.toAbsolutePath() + " --url https://" + hosts.get(0) + ":25380");
    }
}
