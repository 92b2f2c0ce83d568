package org.raidb.test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate and its private key in a PKCS12 key store, made with the JDK's keytool, and
 * the certificate alone in PEM (what a client trusts).
 *
 * @param keyStore the controller's key store
 * @param password its password
 * @param certificate the certificate, PEM
 */
public record TestCertificate(Path keyStore, String password, Path certificate) {

    /**
     * @param subjectAlternativeNames keytool's SAN value, e.g. {@code dns:localhost,ip:127.0.0.1}
     * @param startDate keytool's {@code -startdate} (e.g. {@code -3d}), or null for now
     * @param validityDays days the certificate is valid from its start
     */
    public static TestCertificate make(
            Path dir, String name, String subjectAlternativeNames, String startDate, int validityDays)
            throws IOException, InterruptedException {
        Path store = dir.resolve(name + ".p12");
        Path pem = dir.resolve(name + ".pem");
        String password = "changeit-" + name;
        List<String> generate = new ArrayList<>(List.of(
                keytool(),
                "-genkeypair",
                "-alias",
                "controller",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=" + name,
                "-ext",
                "SAN=" + subjectAlternativeNames,
                "-validity",
                Integer.toString(validityDays),
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                password,
                "-keypass",
                password));
        if (startDate != null) {
            generate.addAll(List.of("-startdate", startDate));
        }
        run(generate);
        run(List.of(
                keytool(),
                "-exportcert",
                "-rfc",
                "-alias",
                "controller",
                "-keystore",
                store.toString(),
                "-storepass",
                password,
                "-file",
                pem.toString()));
        return new TestCertificate(store, password, pem);
    }

    /** The {@code <tls>} element naming this key store. */
    public String tlsElement(String clients) {
        return "<tls keyStore=\"" + keyStore + "\" keyStorePassword=\"" + password + "\" clients=\"" + clients + "\"/>";
    }

    private static String keytool() {
        return Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool failed: " + command + "\n" + out);
        }
    }
}
