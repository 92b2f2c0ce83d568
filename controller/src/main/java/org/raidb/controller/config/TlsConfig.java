package org.raidb.controller.config;

import java.nio.file.Path;

/**
 * {@code <controller><tls …/>}: the key store holding the controller's certificate and private key, for
 * clients that connect over TLS and, unless {@code admin="false"}, for the admin API (HTTPS).
 *
 * @param keyStore the key store file (relative to the working directory)
 * @param keyStorePassword its password (a {@code ${NAME}} in the file is replaced by the variable's value at load)
 * @param keyStoreType {@code PKCS12} (default) or {@code JKS}
 * @param clientsRequired true: plain TCP clients are refused with a message; false: both are served
 * @param admin true: the admin port serves HTTPS only, with the same key store; false: plain HTTP
 */
public record TlsConfig(
        Path keyStore, String keyStorePassword, String keyStoreType, boolean clientsRequired, boolean admin) {

    @Override
    public String toString() {
        // Never the password: settings get logged.
        return "TlsConfig[keyStore=" + keyStore + ", keyStoreType=" + keyStoreType + ", clientsRequired="
                + clientsRequired + ", admin=" + admin + "]";
    }
}
