package org.raidb.tools.bench;

import java.util.Locale;
import org.raidb.controller.config.BackendConfig;
import org.raidb.controller.config.BackupSettings;
import org.raidb.controller.config.ControllerSettings;
import org.raidb.controller.config.DeterminismConfig;
import org.raidb.controller.config.GroupConfig;
import org.raidb.controller.config.HealthSettings;
import org.raidb.controller.config.RaidbConfig;
import org.raidb.controller.config.RecoveryLogSettings;
import org.raidb.controller.config.SchedulerConfig;
import org.raidb.controller.config.UserCredentials;
import org.raidb.controller.config.VirtualDatabaseConfig;

/**
 * The configuration file of a benchmark's controller, written from the {@link RaidbConfig} the
 * in-process setup starts with, so that a controller started as a process of its own ({@code
 * --controller-cpu}) serves with the same configuration. Only what the benchmarks set is written
 * (controller ports and data directory, users, backends, the RAIDb level, the group); everything
 * else must be the default, which the file then leaves to the controller's own defaults: a setting
 * this class cannot write is refused rather than silently dropped.
 */
final class ControllerConfigFile {

    private ControllerConfigFile() {}

    static String xml(RaidbConfig config) {
        ControllerSettings c = config.controller();
        StringBuilder x = new StringBuilder("<raidb>\n");
        x.append("  <controller")
                .append(attribute("host", c.host()))
                .append(attribute("port", c.port()))
                .append(attribute("adminHost", c.adminHost()))
                .append(attribute("adminPort", c.adminPort()))
                .append(attribute("dataDir", c.dataDir().toString()))
                .append(attribute("maxFrameBytes", c.maxFrameBytes()))
                .append(attribute("allowH2BackendsFromAdmin", c.allowH2BackendsFromAdmin()))
                .append("/>\n");
        for (VirtualDatabaseConfig vdb : config.virtualDatabases()) {
            writeVirtualDatabase(vdb, x);
        }
        return x.append("</raidb>\n").toString();
    }

    private static void writeVirtualDatabase(VirtualDatabaseConfig vdb, StringBuilder x) {
        if (!vdb.replication().level().equals("raidb1")
                || !vdb.replication().createTables().isEmpty()
                || !vdb.recoveryLog().equals(RecoveryLogSettings.DEFAULT)
                || !vdb.scheduler().equals(SchedulerConfig.DEFAULT)
                || !vdb.backup().equals(BackupSettings.DEFAULT)
                || !vdb.determinism().equals(DeterminismConfig.DEFAULT)
                || !vdb.health().equals(HealthSettings.DEFAULT)) {
            throw new IllegalArgumentException("virtual database " + vdb.name() + ": only RAIDb-1 with the default"
                    + " recovery log, scheduler, backup, determinism and health settings can be written for a"
                    + " controller process");
        }
        x.append("  <virtualDatabase").append(attribute("name", vdb.name())).append(">\n");
        x.append("    <authentication>\n");
        UserCredentials admin = vdb.authentication().admin();
        x.append("      <admin")
                .append(attribute("user", admin.name()))
                .append(attribute("password", admin.password()))
                .append("/>\n");
        for (UserCredentials u : vdb.authentication().virtualUsers()) {
            x.append("      <virtualUser")
                    .append(attribute("name", u.name()))
                    .append(attribute("password", u.password()))
                    .append("/>\n");
        }
        x.append("    </authentication>\n");
        for (BackendConfig b : vdb.backends()) {
            if (!b.logins().isEmpty() || b.tables() != null) { // null: tables read from the backend's schema
                throw new IllegalArgumentException(
                        "backend " + b.name() + ": logins and tables cannot be written for a controller process");
            }
            x.append("    <backend")
                    .append(attribute("name", b.name()))
                    .append(attribute("url", b.url()))
                    .append(attribute("user", b.user()))
                    .append(attribute("password", b.password()))
                    .append(attribute("weight", b.weight()))
                    .append(attribute("poolSize", b.poolSize()))
                    .append("/>\n");
        }
        // The schema's order: the group before the RAIDb level.
        GroupConfig g = vdb.group();
        if (g != null) {
            x.append("    <controllerGroup")
                    .append(attribute("name", g.name()))
                    .append(attribute("stack", g.stack()))
                    .append(attribute("completion", g.completion().name().toLowerCase(Locale.ROOT)))
                    .append(attribute("bindAddress", g.bindAddress()))
                    .append(attribute("bindPort", g.bindPort()));
            if (!g.members().isEmpty()) {
                x.append(attribute("members", String.join(",", g.members())));
            }
            x.append(attribute("joinTimeout", g.joinTimeoutMillis()))
                    .append(attribute("whenAlone", g.whenAlone().name().toLowerCase(Locale.ROOT)))
                    .append("/>\n");
        }
        x.append("    <raidb1")
                .append(attribute("readPolicy", vdb.replication().readPolicy()))
                .append(attribute("completion", vdb.replication().completion()))
                .append("/>\n");
        x.append("  </virtualDatabase>\n");
    }

    private static String attribute(String name, Object value) {
        return " " + name + "=\"" + escape(String.valueOf(value)) + "\"";
    }

    static String escape(String s) {
        return s.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;")
                .replace("'", "&apos;");
    }
}
