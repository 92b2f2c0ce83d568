package org.raidb.controller.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The checks every backuper's {@code snapshotTaken} callback must pass. */
public final class LiveDumps {

    private LiveDumps() {}

    /**
     * Dumps {@code source} with a callback that writes to it ({@link SampleDatabase#writeAfterSnapshot}), and
     * checks that the callback ran once, on the calling thread.
     */
    public static DumpResult dumpWritingAfterSnapshot(
            Backuper backuper, BackendEndpoint source, Path dump, SampleDatabase.ConnectionSource writeTo)
            throws SQLException {
        List<Thread> ranOn = new ArrayList<>();
        DumpResult result = backuper.dump(source, dump, CopyProgress.NONE, () -> {
            ranOn.add(Thread.currentThread());
            SampleDatabase.writeAfterSnapshot(writeTo);
        });
        assertThat(ranOn).as("threads snapshotTaken ran on").containsExactly(Thread.currentThread());
        return result;
    }

    /** A dump that cannot reach its source fails with 08001 and still runs the callback, once. */
    public static void assertSnapshotTakenRunsWhenTheSourceIsUnreachable(Backuper backuper, Path dir) throws Exception {
        int unused;
        try (ServerSocket socket = new ServerSocket(0)) {
            unused = socket.getLocalPort();
        }
        BackendEndpoint down = new BackendEndpoint("jdbc:postgresql://127.0.0.1:" + unused + "/shop", "postgres", "");
        List<Thread> ranOn = new ArrayList<>();
        assertThatThrownBy(() -> backuper.dump(
                        down, dir.resolve("x"), CopyProgress.NONE, () -> ranOn.add(Thread.currentThread())))
                .extracting(e -> ((SQLException) e).getSQLState())
                .isEqualTo("08001");
        assertThat(ranOn).as("threads snapshotTaken ran on").containsExactly(Thread.currentThread());
    }
}
