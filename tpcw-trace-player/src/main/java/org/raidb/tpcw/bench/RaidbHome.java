package org.raidb.tpcw.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The repository the harness runs from, and the controller's classpath there, found as bin/raidb
 * finds it (controller/target/raidb-controller.jar and controller/target/lib), built when missing.
 * The harness starts the controller and the backends as separate processes, as a user would, so
 * this module never links against the controller.
 */
final class RaidbHome {

    private final Path root;

    private RaidbHome(Path root) {
        this.root = root;
    }

    /** RAIDB_HOME (set by bin/raidb), else the working directory or one of its parents holding bin/raidb. */
    static RaidbHome locate() {
        String env = System.getenv("RAIDB_HOME");
        if (env != null && !env.isBlank()) {
            return new RaidbHome(Path.of(env).toAbsolutePath());
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("bin/raidb")) && Files.isDirectory(p.resolve("controller"))) {
                return new RaidbHome(p);
            }
        }
        throw new IllegalStateException(
                "cannot find the RAIDb repository (bin/raidb): run from inside it or set RAIDB_HOME");
    }

    Path root() {
        return root;
    }

    /** Builds the tools (the controller with them) first if their jar or libraries are missing. */
    String controllerClasspath() throws IOException, InterruptedException {
        Path jar = root.resolve("raidb-tools/target/raidb-tools.jar");
        Path lib = root.resolve("raidb-tools/target/lib");
        if (!Files.isRegularFile(jar) || !Files.isDirectory(lib)) {
            System.err.println("bench: building the controller and tools (mvn package -pl raidb-tools -am)...");
            Process build = new ProcessBuilder("mvn", "-B", "-q", "-DskipTests", "package", "-pl", "raidb-tools", "-am")
                    .directory(root.toFile())
                    .inheritIO()
                    .start();
            if (build.waitFor() != 0) {
                throw new IllegalStateException(
                        "building the controller and tools failed (mvn exit " + build.exitValue() + ")");
            }
        }
        return jar + java.io.File.pathSeparator + lib + "/*";
    }

    /** java -cp CONTROLLER_CLASSPATH org.raidb.tools.cli.RaidbCommand ARGS... */
    List<String> raidbCommand(List<String> args) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new java.util.ArrayList<>(
                List.of(java, "-Xmx512m", "-cp", controllerClasspath(), "org.raidb.tools.cli.RaidbCommand"));
        command.addAll(args);
        return command;
    }
}
