package org.raidb.tools.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;

/** {@link ProgressPrinter}: what a followed operation prints on a terminal, in a script's log, and with --quiet. */
class ProgressPrinterTest {
    private final StringWriter text = new StringWriter();
    private Instant now = Instant.parse("2026-01-01T10:00:00Z");
    private final InstantSource clock = () -> now;

    private ProgressPrinter printer(ProgressPrinter.Style style) {
        return new ProgressPrinter(new PrintWriter(text), style, Duration.ofSeconds(5), clock);
    }

    private void pass(Duration d) {
        now = now.plus(d);
    }

    /**
     * An operation followed for 5.1 s as the console polls it, every 500 ms: "10 of 100" first, "50 of 100" 5 s
     * later, "51 of 100" 100 ms after that, then its end.
     */
    private void follow(ProgressPrinter printer) {
        printer.running("10 of 100");
        for (int i = 1; i < 10; i++) {
            pass(Duration.ofMillis(500));
            printer.running("polled at " + i * 500 + " ms");
        }
        pass(Duration.ofMillis(500));
        printer.running("50 of 100");
        pass(Duration.ofMillis(100));
        printer.running("51 of 100");
        printer.ended("100 of 100, succeeded");
    }

    @Test
    void withoutATerminalALinePerIntervalAtMostPlainAndTheEndAlways() {
        follow(printer(ProgressPrinter.Style.PLAIN));

        assertThat(text.toString()).isEqualTo("10 of 100\n50 of 100\n100 of 100, succeeded\n");
    }

    @Test
    void theNextOperationStartsWithALineAtOnce() {
        ProgressPrinter plain = printer(ProgressPrinter.Style.PLAIN);
        plain.running("first 1");
        plain.ended("first done");
        plain.running("second 1");
        plain.stopped();
        plain.running("third 1");

        assertThat(text.toString()).isEqualTo("first 1\nfirst done\nsecond 1\nthird 1\n");
    }

    @Test
    void quietPrintsOnlyHowItEnded() {
        follow(printer(ProgressPrinter.Style.QUIET));

        assertThat(text.toString()).isEqualTo("100 of 100, succeeded\n");
    }

    @Test
    void onATerminalTheLineIsRedrawnInPlaceAndAShorterOneBlanksTheRest() {
        ProgressPrinter terminal = printer(ProgressPrinter.Style.TERMINAL);
        terminal.running("10 of 100, running");
        terminal.running("20 of 100, running");
        terminal.ended("done");

        assertThat(text.toString()).isEqualTo("\r10 of 100, running\r20 of 100, running\rdone" + " ".repeat(14) + "\n");
    }

    @Test
    void stoppingARedrawnLineEndsIt() {
        ProgressPrinter terminal = printer(ProgressPrinter.Style.TERMINAL);
        terminal.running("10 of 100");
        terminal.stopped();
        terminal.stopped();

        assertThat(text.toString()).isEqualTo("\r10 of 100\n");
    }
}
