package org.raidb.test;

import java.io.IOException;
import java.nio.file.Path;
import org.raidb.controller.tls.SelfSignedCertificate;

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
        SelfSignedCertificate.write(store, pem, password, name, subjectAlternativeNames, startDate, validityDays);
        return new TestCertificate(store, password, pem);
    }

    /** A certificate for {@code localhost} and {@code 127.0.0.1}, valid 30 days: what clients of a test connect to. */
    public static TestCertificate localhost(Path dir) throws IOException, InterruptedException {
        return make(dir, "localhost", "dns:localhost,ip:127.0.0.1", null, 30);
    }

    /** A certificate for another host only ({@code other.example}): a host-name check must refuse it. */
    public static TestCertificate otherHost(Path dir) throws IOException, InterruptedException {
        return make(dir, "other", "dns:other.example", null, 30);
    }

    /** The {@code <tls>} element naming this key store. */
    public String tlsElement(String clients) {
        return "<tls keyStore=\"" + keyStore + "\" keyStorePassword=\"" + password + "\" clients=\"" + clients + "\"/>";
    }
}
