package org.raidb.controller.config;

import java.nio.file.Path;

/**
 * {@code <controller><tls …/>}: the key store holding the controller's certificate and private key, for
 * clients that connect over TLS.
 *
 * @param keyStore the key store file (relative to the working directory)
 * @param keyStorePassword its password, or {@code ${NAME}}: the environment variable NAME holds it
 * @param keyStoreType {@code PKCS12} (default) or {@code JKS}
 * @param clientsRequired true: plain TCP clients are refused with a message; false: both are served
 */
public record TlsConfig(Path keyStore, String keyStorePassword, String keyStoreType, boolean clientsRequired) {

    @Override
    public String toString() {
        // Never the password: settings get logged.
        return "TlsConfig[keyStore=" + keyStore + ", keyStoreType=" + keyStoreType + ", clientsRequired="
                + clientsRequired + "]";
    }
}
