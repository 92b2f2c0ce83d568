package org.raidb.controller.admin.client;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A TLS context trusting the certificates of one file ({@code --cacert}, curl's option of the same name): the
 * controller's self-signed certificate, or the CA that signed it. Host names are checked by the HTTP client.
 */
public final class TrustedCertificates {
    private TrustedCertificates() {}

    /** A context trusting the certificates in {@code file}: one or more, PEM or DER. */
    public static SSLContext of(Path file) throws IOException {
        try {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            int n = 0;
            try (InputStream in = Files.newInputStream(file)) {
                for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                    trusted.setCertificateEntry("trusted-" + n++, c);
                }
            }
            if (n == 0) {
                throw new IOException(file + " holds no certificate (PEM or DER expected)");
            }
            TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            f.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, f.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot read the certificate(s) in " + file + ": " + e.getMessage(), e);
        }
    }
}
