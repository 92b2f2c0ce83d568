package org.raidb.controller.jdbcurl;

import static org.raidb.controller.jdbcurl.RefusedParameter.everywhere;
import static org.raidb.controller.jdbcurl.RefusedParameter.everywhereUnless;
import static org.raidb.controller.jdbcurl.RefusedParameter.fromAdmin;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The driver options the controller refuses, per driver family, read from the drivers' own lists of
 * options (pgjdbc's {@code PGProperty}, MariaDB Connector/J's {@code Configuration}, H2's settings, and
 * MySQL Connector/J's for {@code jdbc:mysql:} URLs should it be put on the class path). A deny list:
 * whatever a driver does with the options not named here stays within the database it connects to.
 */
final class RefusedParameters {
    private static final String CLASS =
            "makes the driver create an object of a class named in the URL: code the" + " controller would run";
    private static final String WRITES_FILE = "makes the driver write a file on the controller's host";
    private static final String READS_FILE = "makes the driver read a file of the controller's host";
    private static final String LOCAL_INFILE = "lets the database server read files of the controller's host";

    private static final Map<DriverFamily, List<RefusedParameter>> BY_FAMILY = Map.of(
            DriverFamily.POSTGRESQL,
                    List.of(
                            everywhere("authenticationPluginClassName", CLASS),
                            everywhere("socketFactory", CLASS),
                            everywhere("socketFactoryArg", "is handed to a socket factory class named in the URL"),
                            everywhere("sslfactory", CLASS + " (for TLS without verification use sslmode=require)"),
                            everywhere("sslfactoryarg", "is handed to an SSL factory class named in the URL"),
                            everywhere("sslhostnameverifier", CLASS),
                            everywhere("sslpasswordcallback", CLASS),
                            everywhere(
                                    "xmlFactoryFactory",
                                    CLASS + ", or turns off pgjdbc's XML external entity protection"),
                            everywhere("loggerFile", WRITES_FILE),
                            everywhere(
                                    "loggerLevel",
                                    "turns on pgjdbc's own logging of statements, which the controller's log"
                                            + " configuration does not govern"),
                            fromAdmin("sslcert", READS_FILE + " (a client certificate)"),
                            fromAdmin("sslkey", READS_FILE + " (a client key: the controller's identity)"),
                            fromAdmin("sslrootcert", READS_FILE),
                            fromAdmin(
                                    "service",
                                    "reads connection settings, passwords included, from the controller host's"
                                            + " pg_service.conf"),
                            fromAdmin(
                                    "jaasApplicationName",
                                    "picks an entry of the controller host's JAAS login configuration")),
            DriverFamily.MARIADB,
                    List.of(
                            // MariaDB Connector/J
                            everywhere("socketFactory", CLASS),
                            everywhereUnless("allowLocalInfile", "false", LOCAL_INFILE + " (LOAD DATA LOCAL INFILE)"),
                            fromAdmin(
                                    "credentialType",
                                    "makes the driver log in with credentials of the controller's host (its"
                                            + " environment, system properties or cloud identity)"),
                            fromAdmin("tlsSocketType", "picks a TLS plugin installed on the controller's host"),
                            fromAdmin(
                                    "serverSslCert",
                                    READS_FILE + " (give the certificate itself, -----BEGIN CERTIFICATE-----…)",
                                    value -> value.trim().startsWith("-----BEGIN")),
                            fromAdmin("keyStore", READS_FILE + " (a client key store: the controller's identity)"),
                            fromAdmin("trustStore", READS_FILE),
                            fromAdmin("serverRsaPublicKeyFile", READS_FILE),
                            fromAdmin(
                                    "localSocket",
                                    "connects through a Unix socket of the controller's host, where the database"
                                            + " may trust the controller's own user"),
                            fromAdmin("pipe", "connects through a named pipe of the controller's host"),
                            // MySQL Connector/J
                            everywhere("queryInterceptors", CLASS),
                            everywhere("statementInterceptors", CLASS),
                            everywhere("exceptionInterceptors", CLASS),
                            everywhere("connectionLifecycleInterceptors", CLASS),
                            everywhere("propertiesTransform", CLASS),
                            everywhere("authenticationPlugins", CLASS),
                            everywhere("defaultAuthenticationPlugin", CLASS),
                            everywhere("authenticationFidoCallbackHandler", CLASS),
                            everywhere("authenticationWebAuthnCallbackHandler", CLASS),
                            everywhere("loadBalanceExceptionChecker", CLASS),
                            everywhere("loadBalanceStrategy", CLASS),
                            everywhere("ha.loadBalanceStrategy", CLASS),
                            everywhere("serverConfigCacheFactory", CLASS),
                            everywhere("clientInfoProvider", CLASS),
                            everywhere("profilerEventHandler", CLASS),
                            everywhere("logger", CLASS),
                            everywhereUnless(
                                    "autoDeserialize",
                                    "false",
                                    "makes the driver deserialize Java objects the database"
                                            + " sends: code the controller would run"),
                            everywhereUnless("allowLoadLocalInfile", "false", LOCAL_INFILE),
                            everywhere("allowLoadLocalInfileInPath", LOCAL_INFILE),
                            everywhereUnless(
                                    "allowUrlInLocalInfile", "false", LOCAL_INFILE + ", or any URL it can reach"),
                            fromAdmin(
                                    "clientCertificateKeyStoreUrl",
                                    READS_FILE + " (a client key store: the controller's identity)"),
                            fromAdmin("trustCertificateKeyStoreUrl", READS_FILE),
                            fromAdmin("ociConfigFile", READS_FILE + " (cloud credentials)")),
            DriverFamily.H2,
                    List.of(
                            everywhere(
                                    "INIT",
                                    "runs SQL when H2 connects, and through it Java code inside the controller"),
                            everywhere(
                                    "RUNSCRIPT",
                                    "runs an SQL script file, and through it Java code inside the controller"),
                            everywhereUnless("TRACE_LEVEL_FILE", "0", WRITES_FILE),
                            everywhere("TRACE_MAX_FILE_SIZE", "sizes a trace file H2 writes on the controller's host"),
                            everywhereUnless(
                                    "TRACE_LEVEL_SYSTEM_OUT",
                                    "0",
                                    "writes statements and data to the controller's output"),
                            everywhere("DATABASE_EVENT_LISTENER", CLASS),
                            everywhere("JAVA_OBJECT_SERIALIZER", CLASS),
                            fromAdmin("AUTO_SERVER", "opens a TCP server to the database inside the controller"),
                            fromAdmin("AUTO_SERVER_PORT", "opens a TCP server to the database inside the controller")),
            DriverFamily.RAIDB, List.of());

    private RefusedParameters() {}

    static Optional<RefusedParameter> find(DriverFamily family, String key) {
        return BY_FAMILY.get(family).stream().filter(p -> p.isNamed(key)).findFirst();
    }
}
