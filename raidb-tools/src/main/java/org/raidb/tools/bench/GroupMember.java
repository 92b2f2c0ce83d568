package org.raidb.tools.bench;

import java.util.OptionalLong;
import org.raidb.controller.Controller;

/**
 * One controller of a {@code bench group} setup: in the benchmark's JVM ({@link InProcess}), or a
 * {@link ControllerProcess} of its own ({@code --controller-cpu}).
 */
interface GroupMember extends AutoCloseable {
    /** The port its clients connect to. */
    int port();

    /** The port its group transport listens on, which the next members are told to contact. */
    int groupPort();

    /** How many members its view of the benchmark's virtual database holds. */
    int viewSize() throws Exception;

    /** Its process, when it has one of its own: its CPU time is then read from /proc. */
    OptionalLong pid();

    @Override
    void close();

    /** A controller in this JVM: its threads' CPU time is told apart by their names. */
    record InProcess(Controller controller) implements GroupMember {
        @Override
        public int port() {
            return controller.port();
        }

        @Override
        public int groupPort() {
            return controller.group(BenchDatabase.NAME).groupPort();
        }

        @Override
        public int viewSize() {
            return controller.group(BenchDatabase.NAME).viewMembers().size();
        }

        @Override
        public OptionalLong pid() {
            return OptionalLong.empty();
        }

        @Override
        public void close() {
            controller.close();
        }
    }
}
