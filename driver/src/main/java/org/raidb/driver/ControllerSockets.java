package org.raidb.driver;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * Sockets to a controller, plain or TLS as the connection's {@link TlsMode} says: the session's link
 * and a cancel request's connection both come from here. TLS starts at once, before any frame (a
 * controller tells the two apart by the first byte).
 */
final class ControllerSockets {
    /** SSL contexts by trust source ("" for the JVM's trust store, "*" for none): one per JVM, so sessions resume. */
    private static final Map<String, SSLContext> CONTEXTS = new ConcurrentHashMap<>();

    private ControllerSockets() {}

    /**
     * Connected within {@code timeoutMillis} (0: no limit), the TLS handshake done within what is left of
     * it; a failure is an IOException naming the controller and the reason, so the caller tries the next.
     */
    static Socket connect(HostAndPort controller, ConnectionSettings settings, int timeoutMillis) throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.setKeepAlive(true);
            socket.connect(new InetSocketAddress(controller.host(), controller.port()), timeoutMillis);
            if (settings.tlsMode() == TlsMode.DISABLE) {
                return socket;
            }
            return secure(socket, controller, settings, timeoutMillis);
        } catch (IOException | RuntimeException e) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // failing anyway
            }
            throw e;
        }
    }

    private static Socket secure(Socket plain, HostAndPort controller, ConnectionSettings settings, int timeoutMillis)
            throws IOException {
        SSLContext context = context(settings);
        SSLSocket tls =
                (SSLSocket) context.getSocketFactory().createSocket(plain, controller.host(), controller.port(), true);
        tls.setUseClientMode(true);
        if (settings.tlsMode() == TlsMode.VERIFY_FULL) {
            SSLParameters p = tls.getSSLParameters();
            p.setEndpointIdentificationAlgorithm("HTTPS"); // the host name must match the certificate
            tls.setSSLParameters(p);
        }
        if (timeoutMillis > 0) {
            tls.setSoTimeout(timeoutMillis);
        }
        try {
            tls.startHandshake();
        } catch (SSLException e) {
            throw new SSLException(
                    "TLS with " + controller + " failed (sslmode=" + modeName(settings.tlsMode()) + "): "
                            + e.getMessage() + hint(e),
                    e);
        }
        return tls;
    }

    private static String hint(SSLException e) {
        String m = String.valueOf(e.getMessage());
        if (m.contains("No subject alternative") || m.contains("doesn't match")) {
            return "; the controller's certificate is for another host name: connect by a name it lists, or use"
                    + " sslmode=verify-ca";
        }
        if (m.contains("unable to find valid certification path") || m.contains("PKIX")) {
            return "; the controller's certificate does not chain to a trusted one: give its CA in sslrootcert";
        }
        if (m.contains("Unsupported or unrecognized SSL message") || m.contains("Remote host terminated")) {
            return "; does this controller accept TLS (a <tls> element in its configuration)?";
        }
        return "";
    }

    private static String modeName(TlsMode mode) {
        return mode.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    private static SSLContext context(ConnectionSettings settings) throws IOException {
        String rootCert = settings.sslRootCert();
        String key = settings.tlsMode() == TlsMode.REQUIRE ? "*" : rootCert == null ? "" : rootCert;
        SSLContext cached = CONTEXTS.get(key);
        if (cached != null) {
            return cached;
        }
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trustManagers(key), null);
            CONTEXTS.putIfAbsent(key, context);
            return CONTEXTS.get(key);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    private static TrustManager[] trustManagers(String key) throws IOException, GeneralSecurityException {
        if (key.equals("*")) {
            return new TrustManager[] {new AnyCertificate()};
        }
        TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        if (key.isEmpty()) {
            f.init((KeyStore) null);
            return f.getTrustManagers();
        }
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        int i = 0;
        try (InputStream in = Files.newInputStream(Path.of(key))) {
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                trusted.setCertificateEntry("root-" + i++, c);
            }
        } catch (IOException e) {
            throw new IOException("cannot read sslrootcert " + key + ": " + e, e);
        }
        if (i == 0) {
            throw new IOException("sslrootcert " + key + " holds no certificate (PEM or DER expected)");
        }
        f.init(trusted);
        return f.getTrustManagers();
    }

    /** sslmode=require: encrypted, the certificate not checked (pgjdbc's NonValidatingFactory). */
    private static final class AnyCertificate implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
            // a client's certificate is not asked for
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            // require: any certificate, by definition of the mode
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
