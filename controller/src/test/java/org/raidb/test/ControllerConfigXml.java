package org.raidb.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.raidb.embedded.EmbeddedPostgresCluster;
import org.raidb.embedded.EmbeddedPostgresServer;

/**
 * A controller XML configuration for an embedded cluster, every part overridable. Defaults:
 * ports 0 (free ports picked by the controller), admin admin/adminpw, one virtual user app/apppw,
 * every server of the cluster as a backend, and {@code <raidb1 readPolicy="roundRobin"
 * completion="all"/>}.
 *
 * <pre>
 * &lt;raidb&gt;
 *   &lt;controller port="0" adminPort="0" dataDir="DATADIR"/&gt;
 *   &lt;virtualDatabase name="shop"&gt;
 *     &lt;authentication&gt;
 *       &lt;admin user="admin" password="adminpw"/&gt;
 *       &lt;virtualUser name="app" password="apppw"/&gt;
 *     &lt;/authentication&gt;
 *     &lt;backend name="pg1" url="jdbc:postgresql://127.0.0.1:PORT/shop" user="postgres" password=""/&gt;
 *     EXTRA XML, if any
 *     &lt;raidb1 readPolicy="roundRobin" completion="all"/&gt;
 *   &lt;/virtualDatabase&gt;
 * &lt;/raidb&gt;
 * </pre>
 */
public final class ControllerConfigXml {

    public static final String DEFAULT_REPLICATION = "<raidb1 readPolicy=\"roundRobin\" completion=\"all\"/>";

    private final String vdbName;
    private List<EmbeddedPostgresServer> backends;
    private int port;
    private int adminPort;
    private Integer shutdownTimeoutMillis;
    private Path dataDir;
    private String controllerElements = "";
    private String adminUser = "admin";
    private String adminPassword = "adminpw";
    private Map<String, String> virtualUsers = new LinkedHashMap<>(Map.of("app", "apppw"));
    private String replicationXml = DEFAULT_REPLICATION;
    private String extraXml = "";
    private final Map<String, String> controllerAttributes = new LinkedHashMap<>();
    private final Map<String, List<String>> tablesByBackend = new LinkedHashMap<>();
    private final Map<String, Integer> poolSizes = new LinkedHashMap<>();
    private final Map<String, Integer> portOverrides = new LinkedHashMap<>();
    private final Map<String, List<String>> credentialOverrides = new LinkedHashMap<>();

    private ControllerConfigXml(String vdbName, List<EmbeddedPostgresServer> backends) {
        this.vdbName = vdbName;
        this.backends = backends;
    }

    public static ControllerConfigXml forCluster(EmbeddedPostgresCluster cluster, String vdbName) {
        return new ControllerConfigXml(vdbName, cluster.servers());
    }

    /** Only these servers as backends (e.g. to add the others later at run time). */
    public ControllerConfigXml backends(List<EmbeddedPostgresServer> servers) {
        this.backends = List.copyOf(servers);
        return this;
    }

    public ControllerConfigXml port(int port) {
        this.port = port;
        return this;
    }

    public ControllerConfigXml adminPort(int adminPort) {
        this.adminPort = adminPort;
        return this;
    }

    /** How long a stop waits for sessions, operations and writes in flight ({@code controller/@shutdownTimeout}). */
    public ControllerConfigXml shutdownTimeout(int millis) {
        this.shutdownTimeoutMillis = millis;
        return this;
    }

    /** The controller's data directory; default: {@code <vdb>-controller-data} beside the file. */
    public ControllerConfigXml dataDir(Path dataDir) {
        this.dataDir = dataDir;
        return this;
    }

    /** Another attribute of {@code <controller>}, e.g. {@code handshakeTimeout}. */
    public ControllerConfigXml controllerAttribute(String name, Object value) {
        this.controllerAttributes.put(name, String.valueOf(value));
        return this;
    }

    public ControllerConfigXml admin(String user, String password) {
        this.adminUser = user;
        this.adminPassword = password;
        return this;
    }

    /** Replaces the virtual users (name to password, in order). */
    public ControllerConfigXml virtualUsers(Map<String, String> namesToPasswords) {
        this.virtualUsers = new LinkedHashMap<>(namesToPasswords);
        return this;
    }

    /** Replaces the replication element, e.g. {@code <raidb1 readPolicy="leastPending" completion="first"/>}. */
    public ControllerConfigXml replication(String xml) {
        this.replicationXml = xml;
        return this;
    }

    /** Static placement: {@code <table name="…"/>} children of the named backend (RAIDb-0, RAIDb-2). */
    public ControllerConfigXml tables(String backend, java.util.Collection<String> tables) {
        this.tablesByBackend.put(backend, List.copyOf(tables));
        return this;
    }

    /** The named backend reached at another port of the loopback (a proxy in front of its server). */
    public ControllerConfigXml throughPort(String backend, int port) {
        this.portOverrides.put(backend, port);
        return this;
    }

    /** The named backend's {@code user} and {@code password} attributes, instead of its server's. */
    public ControllerConfigXml backendLogin(String backend, String user, String password) {
        this.credentialOverrides.put(backend, List.of(user, password));
        return this;
    }

    /** The named backend's {@code poolSize} (connections per login). */
    public ControllerConfigXml poolSize(String backend, int size) {
        this.poolSizes.put(backend, size);
        return this;
    }

    /** Raw XML put inside {@code <controller>} (its {@code <tls>}). */
    public ControllerConfigXml controllerElements(String xml) {
        this.controllerElements = xml == null ? "" : xml;
        return this;
    }

    /** Raw XML put inside {@code <virtualDatabase>}, before the replication element (scheduler, recoveryLog, backup). */
    public ControllerConfigXml extraXml(String xml) {
        this.extraXml = xml == null ? "" : xml;
        return this;
    }

    /** The configuration text; {@code file} only serves to place the default data directory. */
    public String toXml(Path file) {
        Path data =
                dataDir != null ? dataDir : file.toAbsolutePath().getParent().resolve(vdbName + "-controller-data");
        StringBuilder x = new StringBuilder();
        x.append("<raidb>\n");
        x.append("  <controller port=\"")
                .append(port)
                .append("\" adminPort=\"")
                .append(adminPort)
                .append("\" dataDir=\"")
                .append(escape(data.toString()))
                .append('"')
                .append(shutdownTimeoutMillis == null ? "" : " shutdownTimeout=\"" + shutdownTimeoutMillis + '"');
        controllerAttributes.forEach((name, value) ->
                x.append(' ').append(name).append("=\"").append(escape(value)).append('"'));
        x.append(controllerElements.isEmpty() ? "/>\n" : ">\n    " + controllerElements + "\n  </controller>\n");
        x.append("  <virtualDatabase name=\"").append(escape(vdbName)).append("\">\n");
        x.append("    <authentication>\n");
        x.append("      <admin user=\"")
                .append(escape(adminUser))
                .append("\" password=\"")
                .append(escape(adminPassword))
                .append("\"/>\n");
        virtualUsers.forEach((name, password) -> x.append("      <virtualUser name=\"")
                .append(escape(name))
                .append("\" password=\"")
                .append(escape(password))
                .append("\"/>\n"));
        x.append("    </authentication>\n");
        for (EmbeddedPostgresServer s : backends) {
            String url = portOverrides.containsKey(s.name())
                    ? s.jdbcUrl().replace(":" + s.port() + "/", ":" + portOverrides.get(s.name()) + "/")
                    : s.jdbcUrl();
            x.append("    <backend name=\"")
                    .append(escape(s.name()))
                    .append("\" url=\"")
                    .append(escape(url))
                    .append("\" user=\"")
                    .append(escape(credentialOverrides
                            .getOrDefault(s.name(), List.of(s.user(), ""))
                            .get(0)))
                    .append("\" password=\"")
                    .append(escape(credentialOverrides
                            .getOrDefault(s.name(), List.of("", s.password()))
                            .get(1)));
            if (poolSizes.containsKey(s.name())) {
                x.append("\" poolSize=\"").append(poolSizes.get(s.name()));
            }
            List<String> tables = tablesByBackend.get(s.name());
            if (tables == null) {
                x.append("\"/>\n");
            } else {
                x.append("\">\n");
                tables.forEach(
                        t -> x.append("      <table name=\"").append(escape(t)).append("\"/>\n"));
                x.append("    </backend>\n");
            }
        }
        // Extra elements (scheduler, recoveryLog, backup) come before the RAIDb level, as the schema orders them.
        for (String line : extraXml.strip().lines().toList()) {
            x.append("    ").append(line).append('\n');
        }
        x.append("    ").append(replicationXml.strip()).append('\n');
        x.append("  </virtualDatabase>\n");
        x.append("</raidb>\n");
        return x.toString();
    }

    /** Writes the configuration (creating parent directories) and returns {@code file}. */
    public Path writeTo(Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Files.writeString(file, toXml(file));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** XML attribute escaping. */
    public static String escape(String value) {
        StringBuilder out = new StringBuilder(value.length());
        for (char ch : value.toCharArray()) {
            switch (ch) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&apos;");
                default -> out.append(ch);
            }
        }
        return out.toString();
    }

    @Override
    public String toString() {
        List<String> names = new ArrayList<>();
        backends.forEach(b -> names.add(b.name()));
        return "ControllerConfigXml[" + vdbName + " on " + names + "]";
    }
}
