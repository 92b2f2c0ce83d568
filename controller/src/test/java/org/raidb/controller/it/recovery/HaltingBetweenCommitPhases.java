package org.raidb.controller.it.recovery;

import org.raidb.controller.Controller;
import org.raidb.controller.analysis.ParserThreads;
import org.raidb.controller.cli.ControllerCommand;
import org.raidb.controller.cli.RunningController;
import org.raidb.controller.vdb.ControllerResources;
import picocli.CommandLine;

/**
 * {@code raidb controller}, except that the JVM halts (exit 137, as kill -9) once every backend has
 * prepared a two-phase commit and before any commits it: TwoPhaseCommitCrashIT runs it in a process
 * of its own to show that a restart finishes the transaction.
 */
public final class HaltingBetweenCommitPhases {
    private HaltingBetweenCommitPhases() {}

    public static void main(String[] args) {
        ControllerCommand command = new ControllerCommand(config -> RunningController.of(Controller.start(
                config,
                new ControllerResources(
                        new ParserThreads("raidb-sql-parser"),
                        () -> Runtime.getRuntime().halt(137)))));
        System.exit(new CommandLine(command).setCommandName("raidb controller").execute(args));
    }
}
