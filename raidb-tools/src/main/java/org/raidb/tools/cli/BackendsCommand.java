package org.raidb.tools.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.raidb.controller.cli.RaidbVersion;
import org.raidb.controller.files.PrivateFiles;
import org.raidb.embedded.EmbeddedPostgresCluster;
import org.raidb.embedded.EmbeddedPostgresServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code raidb backends}: embedded PostgreSQL servers for benchmarks and experiments, served until
 * the process is stopped. Other processes (the TPC-W bench harness) learn where they are from the
 * printed lines or the port file, written once every server accepts connections.
 */
@Command(
        name = "backends",
        mixinStandardHelpOptions = true,
        versionProvider = RaidbVersion.class,
        description = "Start embedded PostgreSQL servers, print where they listen, serve until Ctrl-C or SIGTERM.")
final class BackendsCommand implements Callable<Integer> {

    @Option(names = "--count", defaultValue = "2", description = "Number of servers (default ${DEFAULT-VALUE}).")
    int count;

    @Option(
            names = "--database",
            defaultValue = "tpcw",
            description = "Database created on each server (default ${DEFAULT-VALUE}).")
    String database;

    @Option(
            names = "--port-file",
            paramLabel = "FILE",
            description = "Also write the servers as JSON here: [{name, port, url, user, password, pid}, ...].")
    Path portFile;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (count < 1 || count > 32) {
            throw new ParameterException(spec.commandLine(), "--count must be between 1 and 32, not " + count);
        }
        EmbeddedPostgresCluster cluster = EmbeddedPostgresCluster.start(count, database);
        CountDownLatch stopped = new CountDownLatch(1);
        // The cluster registers its own hook too; this one lets call() return once it has run.
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            cluster.close();
                            stopped.countDown();
                        },
                        "raidb-backends-shutdown"));
        List<Map<String, Object>> described = new ArrayList<>();
        PrintWriter out = spec.commandLine().getOut();
        for (EmbeddedPostgresServer s : cluster.servers()) {
            long pid = s.postmasterPid().orElse(-1);
            out.println("backend " + s.name() + " port " + s.port() + " url " + s.jdbcUrl() + " pid " + pid);
            Map<String, Object> server = new LinkedHashMap<>();
            server.put("name", s.name());
            server.put("port", s.port());
            server.put("url", s.jdbcUrl());
            server.put("user", s.user());
            server.put("password", s.password());
            server.put("pid", pid);
            described.add(server);
        }
        if (portFile != null) {
            // Written whole then renamed, so that a reader polling for the file never sees half of it; private, as it
            // holds the servers' logins.
            PrivateFiles.writeAtomically(
                    portFile,
                    new ObjectMapper()
                            .enable(SerializationFeature.INDENT_OUTPUT)
                            .writeValueAsBytes(described));
        }
        out.println("serving " + count + " backend(s) until stopped (Ctrl-C)");
        out.flush();
        stopped.await();
        return 0;
    }
}
