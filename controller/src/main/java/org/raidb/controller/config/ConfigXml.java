package org.raidb.controller.config;

import com.fasterxml.jackson.dataformat.xml.annotation.JacksonXmlElementWrapper;
import com.fasterxml.jackson.dataformat.xml.annotation.JacksonXmlProperty;
import com.fasterxml.jackson.dataformat.xml.annotation.JacksonXmlRootElement;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What Jackson binds a configuration file into: the XML exactly as written, absent attributes null.
 *
 * <p>The public records stay free of XML concerns; {@link #toConfig()} applies {@link ConfigDefaults}. Only used
 * after schema validation, so the shape and value ranges are already right here.
 */
@JacksonXmlRootElement(localName = "raidb")
final class ConfigXml {

    public ControllerXml controller;

    @JacksonXmlElementWrapper(useWrapping = false)
    @JacksonXmlProperty(localName = "virtualDatabase")
    public List<VirtualDatabaseXml> virtualDatabases = new ArrayList<>();

    RaidbConfig toConfig() {
        ControllerXml settings = controller == null ? new ControllerXml() : controller;
        return new RaidbConfig(
                settings.toSettings(),
                virtualDatabases.stream().map(VirtualDatabaseXml::toConfig).toList());
    }

    static final class ControllerXml {
        @JacksonXmlProperty(isAttribute = true)
        public String host;

        @JacksonXmlProperty(isAttribute = true)
        public Integer port;

        @JacksonXmlProperty(isAttribute = true)
        public String adminHost;

        @JacksonXmlProperty(isAttribute = true)
        public Integer adminPort;

        @JacksonXmlProperty(isAttribute = true)
        public Integer metricsPort;

        @JacksonXmlProperty(isAttribute = true)
        public String dataDir;

        @JacksonXmlProperty(isAttribute = true)
        public Integer maxFrameBytes;

        @JacksonXmlProperty(isAttribute = true)
        public Integer shutdownTimeout;

        @JacksonXmlProperty(isAttribute = true)
        public Boolean allowH2BackendsFromAdmin;

        @JacksonXmlProperty(isAttribute = true)
        public Integer preLoginMaxFrameBytes;

        @JacksonXmlProperty(isAttribute = true)
        public Integer handshakeTimeout;

        @JacksonXmlProperty(isAttribute = true)
        public Integer loginAttemptsBeforeDelay;

        @JacksonXmlProperty(isAttribute = true)
        public Integer loginMaxDelay;

        @JacksonXmlProperty(isAttribute = true)
        public Integer clientErrorLogInterval;

        @JacksonXmlProperty(isAttribute = true)
        public Integer pgPort;

        @JacksonXmlProperty(isAttribute = true)
        public String pgAuthentication;

        public TlsXml tls;

        ControllerSettings toSettings() {
            ClientLimits d = ClientLimits.DEFAULT;
            return new ControllerSettings(
                    or(host, ConfigDefaults.HOST),
                    or(port, ConfigDefaults.PORT),
                    or(adminHost, ConfigDefaults.ADMIN_HOST),
                    or(adminPort, ConfigDefaults.ADMIN_PORT),
                    Path.of(or(dataDir, ConfigDefaults.DATA_DIR)),
                    or(maxFrameBytes, ConfigDefaults.MAX_FRAME_BYTES),
                    or(allowH2BackendsFromAdmin, ConfigDefaults.ALLOW_H2_BACKENDS_FROM_ADMIN),
                    or(shutdownTimeout, ConfigDefaults.SHUTDOWN_TIMEOUT_MILLIS),
                    new ClientLimits(
                            or(preLoginMaxFrameBytes, d.preLoginMaxFrameBytes()),
                            or(handshakeTimeout, d.handshakeTimeoutMillis()),
                            or(loginAttemptsBeforeDelay, d.loginAttemptsBeforeDelay()),
                            or(loginMaxDelay, d.loginMaxDelayMillis()),
                            or(clientErrorLogInterval, d.clientErrorLogIntervalMillis())),
                    new PostgresWireSettings(
                            or(pgPort, PostgresWireSettings.OFF.port()),
                            or(pgAuthentication, PostgresWireSettings.OFF.authentication())),
                    tls == null ? null : tls.toConfig(),
                    or(metricsPort, ControllerSettings.NO_METRICS_PORT));
        }
    }

    static final class TlsXml {
        @JacksonXmlProperty(isAttribute = true)
        public String keyStore;

        @JacksonXmlProperty(isAttribute = true)
        public String keyStorePassword;

        @JacksonXmlProperty(isAttribute = true)
        public String keyStoreType;

        @JacksonXmlProperty(isAttribute = true)
        public String clients;

        @JacksonXmlProperty(isAttribute = true)
        public Boolean admin;

        TlsConfig toConfig() {
            return new TlsConfig(
                    Path.of(keyStore),
                    or(keyStorePassword, ""),
                    or(keyStoreType, "PKCS12"),
                    !"optional".equals(or(clients, "required")),
                    or(admin, true));
        }
    }

    static final class ControllerGroupXml {
        @JacksonXmlProperty(isAttribute = true)
        public String name;

        @JacksonXmlProperty(isAttribute = true)
        public String stack;

        @JacksonXmlProperty(isAttribute = true)
        public String completion;

        @JacksonXmlProperty(isAttribute = true)
        public String bindAddress;

        @JacksonXmlProperty(isAttribute = true)
        public Integer bindPort;

        @JacksonXmlProperty(isAttribute = true)
        public String members;

        @JacksonXmlProperty(isAttribute = true)
        public Integer joinTimeout;

        @JacksonXmlProperty(isAttribute = true)
        public String whenAlone;

        GroupConfig toConfig() {
            return new GroupConfig(
                    name,
                    or(stack, "tcp-loopback.xml"),
                    GroupConfig.Completion.parse(or(completion, "all")),
                    or(bindAddress, "127.0.0.1"),
                    or(bindPort, 7800),
                    members == null || members.isBlank()
                            ? java.util.List.of()
                            : java.util.Arrays.stream(members.split(","))
                                    .map(String::strip)
                                    .filter(m -> !m.isEmpty())
                                    .toList(),
                    or(joinTimeout, 2000),
                    GroupConfig.WhenAlone.parse(or(whenAlone, "auto")));
        }
    }

    static final class VirtualDatabaseXml {
        @JacksonXmlProperty(isAttribute = true)
        public String name;

        public AuthenticationXml authentication;

        @JacksonXmlElementWrapper(useWrapping = false)
        @JacksonXmlProperty(localName = "backend")
        public List<BackendXml> backends = new ArrayList<>();

        public SchedulerXml scheduler;
        public DeterminismXml determinism;
        public RecoveryLogXml recoveryLog;
        public BackupXml backup;
        public VerifyXml verify;
        public HealthXml health;
        public ControllerGroupXml controllerGroup;
        public ResultCacheXml resultCache;

        // The replication group of the schema: exactly one of these is set.
        public LevelXml raidb0;
        public LevelXml raidb1;
        public LevelXml raidb1ec;
        public LevelXml raidb2;
        public LevelXml raidb2ec;

        VirtualDatabaseConfig toConfig() {
            SchedulerConfig schedulerConfig = scheduler == null
                    ? SchedulerConfig.DEFAULT
                    : new SchedulerConfig(
                            or(scheduler.type, SchedulerConfig.DEFAULT.type()),
                            or(scheduler.lockTimeout, SchedulerConfig.DEFAULT.lockTimeoutMillis()));
            return new VirtualDatabaseConfig(
                    name,
                    authentication.toConfig(),
                    backends.stream().map(BackendXml::toConfig).toList(),
                    replication(),
                    schedulerConfig,
                    recoveryLog == null ? RecoveryLogSettings.DEFAULT : recoveryLog.toSettings(),
                    backup == null ? BackupSettings.DEFAULT : backup.toSettings(),
                    determinism == null ? DeterminismConfig.DEFAULT : determinism.toConfig(),
                    health == null ? HealthSettings.DEFAULT : health.toSettings(),
                    controllerGroup == null ? null : controllerGroup.toConfig(),
                    verify == null ? null : RecoveryLogSettings.parseAge(verify.every.strip(), "verify/@every"),
                    resultCache == null ? null : resultCache.toConfig());
        }

        private ReplicationConfig replication() {
            if (raidb1 != null) {
                return new ReplicationConfig(
                        "raidb1",
                        or(raidb1.readPolicy, ConfigDefaults.READ_POLICY),
                        or(raidb1.completion, ConfigDefaults.COMPLETION));
            }
            if (raidb0 != null) {
                // No read policy to choose (one backend holds each table) and every backend's answer counts.
                return raidb0.toConfig("raidb0", null);
            }
            if (raidb2 != null) {
                return raidb2.toConfig("raidb2", null);
            }
            if (raidb1ec != null) {
                return raidb1ec.toConfig("raidb1ec", or(raidb1ec.nodes, ConfigDefaults.ERROR_CHECKING_NODES));
            }
            if (raidb2ec != null) {
                return raidb2ec.toConfig("raidb2ec", or(raidb2ec.nodes, ConfigDefaults.ERROR_CHECKING_NODES));
            }
            // Unreachable for a file that passed the schema; a binding bug if it happens.
            throw new IllegalStateException(
                    "virtual database '" + name + "' has no replication element after validation");
        }
    }

    static final class SchedulerXml {
        @JacksonXmlProperty(isAttribute = true)
        public String type;

        @JacksonXmlProperty(isAttribute = true)
        public Integer lockTimeout;
    }

    static final class DeterminismXml {
        @JacksonXmlProperty(isAttribute = true)
        public String multiStatements;

        @JacksonXmlProperty(isAttribute = true)
        public String onVolatileTrigger;

        DeterminismConfig toConfig() {
            return new DeterminismConfig(
                    "refuse".equals(or(multiStatements, ConfigDefaults.MULTI_STATEMENTS)),
                    "refuse".equals(or(onVolatileTrigger, ConfigDefaults.ON_VOLATILE_TRIGGER)));
        }
    }

    static final class RecoveryLogXml {
        @JacksonXmlProperty(isAttribute = true)
        public Boolean enabled;

        @JacksonXmlProperty(isAttribute = true)
        public String url;

        @JacksonXmlProperty(isAttribute = true)
        public String user;

        @JacksonXmlProperty(isAttribute = true)
        public String password;

        @JacksonXmlProperty(isAttribute = true)
        public String tablePrefix;

        @JacksonXmlProperty(isAttribute = true)
        public Integer maxBatchEntries;

        @JacksonXmlProperty(isAttribute = true)
        public Integer maxWaitMicros;

        @JacksonXmlProperty(isAttribute = true)
        public String purgeAfter;

        RecoveryLogSettings toSettings() {
            RecoveryLogSettings d = RecoveryLogSettings.DEFAULT;
            return new RecoveryLogSettings(
                    or(enabled, d.enabled()),
                    url,
                    or(user, d.user()),
                    or(password, d.password()),
                    or(tablePrefix, d.tablePrefix()),
                    or(maxBatchEntries, d.maxBatchEntries()),
                    or(maxWaitMicros, d.maxWaitMicros()),
                    purgeAfter == null ? d.purgeAfter() : RecoveryLogSettings.parsePurgeAfter(purgeAfter.strip()));
        }
    }

    static final class VerifyXml {
        @JacksonXmlProperty(isAttribute = true)
        public String every;
    }

    static final class BackupXml {
        @JacksonXmlProperty(isAttribute = true)
        public String backuper;

        @JacksonXmlProperty(isAttribute = true)
        public String dumpDir;

        @JacksonXmlProperty(isAttribute = true)
        public String toolsDir;

        BackupSettings toSettings() {
            return new BackupSettings(or(backuper, BackupSettings.DEFAULT.backuper()), dumpDir, toolsDir);
        }
    }

    static final class ResultCacheXml {
        @JacksonXmlProperty(isAttribute = true)
        public String granularity;

        @JacksonXmlProperty(isAttribute = true)
        public Long maxEntries;

        @JacksonXmlProperty(isAttribute = true)
        public Long maxBytes;

        @JacksonXmlProperty(isAttribute = true)
        public Long relaxedStalenessMillis;

        @JacksonXmlElementWrapper(useWrapping = false)
        public List<RelaxedXml> relaxed;

        ResultCacheConfig toConfig() {
            return new ResultCacheConfig(
                    ResultCacheConfig.Granularity.parse(or(granularity, "table")),
                    or(maxEntries, ResultCacheConfig.DEFAULT_MAX_ENTRIES),
                    or(maxBytes, ResultCacheConfig.DEFAULT_MAX_BYTES),
                    or(relaxedStalenessMillis, 0L),
                    relaxed == null
                            ? List.of()
                            : relaxed.stream()
                                    .map(r -> ResultCacheConfig.RelaxedRule.parse(r.pattern, r.stalenessMillis))
                                    .toList());
        }
    }

    static final class RelaxedXml {
        @JacksonXmlProperty(isAttribute = true)
        public String pattern;

        @JacksonXmlProperty(isAttribute = true)
        public Long stalenessMillis;
    }

    static final class HealthXml {
        @JacksonXmlProperty(isAttribute = true)
        public Integer backendTimeout;

        @JacksonXmlProperty(isAttribute = true)
        public Integer probeInterval;

        HealthSettings toSettings() {
            HealthSettings d = HealthSettings.DEFAULT;
            return new HealthSettings(
                    or(backendTimeout, d.backendTimeoutMillis()), or(probeInterval, d.probeIntervalMillis()));
        }
    }

    static final class AuthenticationXml {
        public AdminXml admin;

        @JacksonXmlElementWrapper(useWrapping = false)
        @JacksonXmlProperty(localName = "virtualUser")
        public List<VirtualUserXml> virtualUsers = new ArrayList<>();

        AuthenticationConfig toConfig() {
            return new AuthenticationConfig(
                    new UserCredentials(admin.user, or(admin.password, ConfigDefaults.PASSWORD)),
                    virtualUsers.stream()
                            .map(u -> new UserCredentials(u.name, or(u.password, ConfigDefaults.PASSWORD)))
                            .toList());
        }
    }

    static final class AdminXml {
        @JacksonXmlProperty(isAttribute = true)
        public String user;

        @JacksonXmlProperty(isAttribute = true)
        public String password;
    }

    static final class VirtualUserXml {
        @JacksonXmlProperty(isAttribute = true)
        public String name;

        @JacksonXmlProperty(isAttribute = true)
        public String password;
    }

    static final class BackendXml {
        @JacksonXmlProperty(isAttribute = true)
        public String name;

        @JacksonXmlProperty(isAttribute = true)
        public String url;

        @JacksonXmlProperty(isAttribute = true)
        public String user;

        @JacksonXmlProperty(isAttribute = true)
        public String password;

        @JacksonXmlProperty(isAttribute = true)
        public Integer weight;

        @JacksonXmlProperty(isAttribute = true)
        public Integer poolSize;

        @JacksonXmlElementWrapper(useWrapping = false)
        @JacksonXmlProperty(localName = "login")
        public List<LoginXml> logins = new ArrayList<>();

        @JacksonXmlElementWrapper(useWrapping = false)
        @JacksonXmlProperty(localName = "table")
        public List<TableXml> tables = new ArrayList<>();

        BackendConfig toConfig() {
            return new BackendConfig(
                    name,
                    url,
                    user,
                    or(password, ConfigDefaults.PASSWORD),
                    or(weight, ConfigDefaults.BACKEND_WEIGHT),
                    or(poolSize, ConfigDefaults.BACKEND_POOL_SIZE),
                    logins.stream()
                            .map(l -> new LoginConfig(l.virtualUser, l.user, or(l.password, ConfigDefaults.PASSWORD)))
                            .toList(),
                    tables.isEmpty() ? null : tables.stream().map(t -> t.name).toList());
        }
    }

    static final class LoginXml {
        @JacksonXmlProperty(isAttribute = true)
        public String virtualUser;

        @JacksonXmlProperty(isAttribute = true)
        public String user;

        @JacksonXmlProperty(isAttribute = true)
        public String password;
    }

    /** Any replication element: the schema allows each only its own attributes and children. */
    static final class LevelXml {
        @JacksonXmlProperty(isAttribute = true)
        public String readPolicy;

        @JacksonXmlProperty(isAttribute = true)
        public String completion;

        @JacksonXmlProperty(isAttribute = true)
        public Integer nodes;

        @JacksonXmlElementWrapper(useWrapping = false)
        @JacksonXmlProperty(localName = "createTable")
        public List<CreateTableXml> createTables = new ArrayList<>();

        @JacksonXmlElementWrapper(useWrapping = false)
        @JacksonXmlProperty(localName = "table")
        public List<TableXml> tables = new ArrayList<>();

        ReplicationConfig toConfig(String level, Integer errorCheckingNodes) {
            return new ReplicationConfig(
                    level,
                    or(readPolicy, ConfigDefaults.READ_POLICY),
                    or(completion, ConfigDefaults.COMPLETION),
                    errorCheckingNodes,
                    createTables.stream().map(CreateTableXml::toConfig).toList(),
                    tables.stream().map(t -> t.name).toList());
        }
    }

    static final class CreateTableXml {
        @JacksonXmlProperty(isAttribute = true)
        public String policy;

        @JacksonXmlProperty(isAttribute = true)
        public Integer nodes;

        @JacksonXmlProperty(isAttribute = true)
        public String tables;

        @JacksonXmlElementWrapper(useWrapping = false)
        @JacksonXmlProperty(localName = "backend")
        public List<BackendRefXml> backends = new ArrayList<>();

        ReplicationConfig.CreateTableConfig toConfig() {
            return new ReplicationConfig.CreateTableConfig(
                    tables, policy, nodes, backends.stream().map(b -> b.name).toList());
        }
    }

    static final class BackendRefXml {
        @JacksonXmlProperty(isAttribute = true)
        public String name;
    }

    static final class TableXml {
        @JacksonXmlProperty(isAttribute = true)
        public String name;
    }

    private static <T> T or(T value, T byDefault) {
        return value != null ? value : byDefault;
    }
}
