package org.raidb.tools.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Duration;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * A JFR recording of this JVM, one file per workload. Controller and clients share the JVM, so the
 * recording holds every thread; {@code raidb bench jfr-top} keeps only the controller's threads
 * (raidb-session-*, the virtual database's backend threads). Those threads exist only while RAIDb
 * clients are connected, so the pgjdbc measurements, also inside the recording, add nothing to them.
 */
final class ControllerRecording {
    private final Path base;
    private Recording recording;

    ControllerRecording(Path base) {
        this.base = base;
    }

    /** Starts recording with JFR's "profile" settings (10 ms execution samples) plus every socket read and write. */
    void start() throws IOException {
        Configuration profile;
        try {
            profile = Configuration.getConfiguration("profile");
        } catch (ParseException e) {
            throw new IOException("JFR's profile configuration is unreadable", e);
        }
        recording = new Recording(profile);
        // Each socket read is a wait for the other side: counting them per operation shows the round trips.
        // Without stack traces, because there are tens of thousands per second.
        recording.enable("jdk.SocketRead").withThreshold(Duration.ZERO).withoutStackTrace();
        recording.enable("jdk.SocketWrite").withThreshold(Duration.ZERO).withoutStackTrace();
        recording.start();
    }

    /** Stops and writes {@code <base>-<workload>.jfr}; returns that file. */
    Path stopAndDump(Workload workload) throws IOException {
        Path file = fileFor(workload);
        try {
            recording.stop();
            recording.dump(file);
        } finally {
            recording.close();
            recording = null;
        }
        return file;
    }

    Path fileFor(Workload workload) {
        String name = base.getFileName().toString();
        String stem = name.endsWith(".jfr") ? name.substring(0, name.length() - 4) : name;
        return base.resolveSibling(stem + "-" + workload.slug() + ".jfr");
    }
}
