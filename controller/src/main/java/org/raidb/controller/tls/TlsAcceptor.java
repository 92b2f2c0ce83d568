package org.raidb.controller.tls;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.util.Collections;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.raidb.controller.config.ConfigException;
import org.raidb.controller.config.TlsConfig;

/**
 * TLS for client connections on the controller's one port. A client that wants TLS starts its
 * handshake at once, and a TLS handshake record starts with byte 22; a RAIDb frame never does (its
 * first byte is the high byte of a small length). So the first byte tells the two apart: no separate
 * port and no request to upgrade, and a plain client of a TLS-only controller is told what to do.
 */
public final class TlsAcceptor {
    private static final int HANDSHAKE_RECORD = 22;

    private final SSLContext context;
    private final boolean clientsRequired;

    private TlsAcceptor(SSLContext context, boolean clientsRequired) {
        this.context = context;
        this.clientsRequired = clientsRequired;
    }

    /** The key store's TLS context, which the admin API's HTTPS server shares. */
    /** Whether a client must use TLS ({@code clients="required"}). */
    public boolean clientsRequired() {
        return clientsRequired;
    }

    /**
     * The server side of a handshake on a connection that asked for TLS in its own protocol first (the
     * PostgreSQL port's SSLRequest, answered 'S'): nothing of it was read past that request.
     */
    public SSLSocket upgrade(Socket socket) throws IOException {
        SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(socket, null, true);
        tls.setUseClientMode(false);
        tls.startHandshake();
        return tls;
    }

    public SSLContext context() {
        return context;
    }

    /** The connection's streams, over TLS or not. */
    public record Accepted(Socket socket, InputStream in, boolean tls) {}

    /** A plain TCP client reached a controller that requires TLS. */
    public static final class PlainClientRefused extends IOException {
        private static final long serialVersionUID = 1L;

        PlainClientRefused() {
            super("this controller accepts TLS connections only: connect with sslmode=require, verify-ca or"
                    + " verify-full (or ssl=true), trusting the controller's certificate (sslrootcert)");
        }
    }

    /**
     * Loads the key store and checks its certificates; fails naming the file and what is wrong (missing,
     * wrong password, expired or not yet valid certificate).
     */
    public static TlsAcceptor load(TlsConfig config) throws ConfigException {
        String where = "<tls keyStore=\"" + config.keyStore() + "\">";
        // A ${NAME} password was replaced by the variable's value when the configuration was loaded.
        char[] password = config.keyStorePassword().toCharArray();
        KeyStore keys;
        try (InputStream in = Files.newInputStream(config.keyStore())) {
            keys = KeyStore.getInstance(config.keyStoreType());
            keys.load(in, password);
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigException(
                    where + ": cannot read the key store ("
                            + (e.getCause() instanceof java.security.UnrecoverableKeyException
                                    ? "wrong password"
                                    : e.toString())
                            + "); check the file and keyStorePassword",
                    e);
        }
        try {
            int withKey = 0;
            for (String alias : Collections.list(keys.aliases())) {
                if (!keys.isKeyEntry(alias)) {
                    continue;
                }
                withKey++;
                if (keys.getCertificate(alias) instanceof X509Certificate cert) {
                    try {
                        cert.checkValidity();
                    } catch (CertificateExpiredException | CertificateNotYetValidException e) {
                        throw new ConfigException(where + ": the certificate of '" + alias + "' ("
                                + cert.getSubjectX500Principal().getName() + ") is valid from " + cert.getNotBefore()
                                + " to " + cert.getNotAfter()
                                + ", not now: put a current certificate in the key store");
                    }
                }
            }
            if (withKey == 0) {
                throw new ConfigException(where + ": the key store holds no private key with its certificate");
            }
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, password);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), null, null);
            return new TlsAcceptor(context, config.clientsRequired());
        } catch (GeneralSecurityException e) {
            throw new ConfigException(where + ": cannot use the key store: " + e, e);
        }
    }

    /**
     * Reads the connection's first byte (within the socket's timeout, the handshake's) and, for a TLS
     * client, completes the handshake. Throws {@link PlainClientRefused} for a plain client when TLS is
     * required: the caller answers it with an error frame over plain TCP.
     */
    public Accepted accept(Socket socket) throws IOException {
        InputStream raw = socket.getInputStream();
        int first = raw.read();
        if (first < 0) {
            throw new EOFException("the client closed the connection before its first byte");
        }
        InputStream replayed = new ByteArrayInputStream(new byte[] {(byte) first});
        if (first != HANDSHAKE_RECORD) {
            if (clientsRequired) {
                throw new PlainClientRefused();
            }
            return new Accepted(socket, new SequenceInputStream(replayed, raw), false);
        }
        SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(socket, replayed, true);
        tls.setUseClientMode(false);
        tls.startHandshake();
        return new Accepted(tls, tls.getInputStream(), true);
    }
}
