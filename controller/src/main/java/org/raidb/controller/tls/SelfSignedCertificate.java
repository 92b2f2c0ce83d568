package org.raidb.controller.tls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Makes a self-signed certificate with the JDK's keytool, as an operator would by hand: an EC P-256 key and its
 * certificate in a PKCS12 key store (alias {@code controller}), and the certificate alone in PEM, what clients
 * trust. The JDK's public API has no certificate builder and its internal one (sun.security.x509) is not exported.
 * The password reaches keytool through its environment ({@code -storepass:env}), not a command line {@code ps}
 * shows. For {@code raidb tls-cert} and the tests.
 */
public final class SelfSignedCertificate {
    private static final String PASSWORD_VARIABLE = "RAIDB_KEYTOOL_STOREPASS";

    private SelfSignedCertificate() {}

    /**
     * Writes {@code keyStore} (replaced if it exists) and {@code pem}.
     *
     * @param commonName the subject's CN
     * @param subjectAlternativeNames keytool's SAN value, e.g. {@code dns:localhost,ip:127.0.0.1}
     * @param startDate keytool's {@code -startdate} (e.g. {@code -3d}), or null for now
     * @param validityDays days the certificate is valid from its start
     */
    public static void write(
            Path keyStore,
            Path pem,
            String password,
            String commonName,
            String subjectAlternativeNames,
            String startDate,
            int validityDays)
            throws IOException, InterruptedException {
        // keytool adds to an existing key store and refuses to overwrite a file it exports to.
        Files.deleteIfExists(keyStore);
        Files.deleteIfExists(pem);
        List<String> generate = new ArrayList<>(List.of(
                "-genkeypair",
                "-alias",
                "controller",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=" + commonName,
                "-ext",
                "SAN=" + subjectAlternativeNames,
                "-validity",
                Integer.toString(validityDays),
                "-storetype",
                "PKCS12",
                "-keystore",
                keyStore.toString(),
                "-storepass:env",
                PASSWORD_VARIABLE));
        if (startDate != null) {
            generate.addAll(List.of("-startdate", startDate));
        }
        keytool(password, generate);
        keytool(
                password,
                List.of(
                        "-exportcert",
                        "-rfc",
                        "-alias",
                        "controller",
                        "-keystore",
                        keyStore.toString(),
                        "-storepass:env",
                        PASSWORD_VARIABLE,
                        "-file",
                        pem.toString()));
    }

    private static void keytool(String password, List<String> arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(arguments);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put(PASSWORD_VARIABLE, password);
        Process p = builder.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("keytool did not end within 60 s: " + arguments.get(0));
        }
        if (p.exitValue() != 0) {
            throw new IOException(
                    "keytool " + arguments.get(0) + " failed (exit " + p.exitValue() + "): " + output.strip());
        }
    }
}
