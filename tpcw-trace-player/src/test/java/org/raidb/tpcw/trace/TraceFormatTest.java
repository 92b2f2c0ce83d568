package org.raidb.tpcw.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.tpcw.trace.TraceEvent.Kind;

class TraceFormatTest {

    @TempDir
    Path dir;

    private static final List<TraceEvent> EVENTS = List.of(
            new TraceEvent(0, 1, Kind.INTERACTION, "BuyConfirm"),
            TraceEvent.of(10, 1, Kind.BEGIN),
            TraceEvent.statement(20, 1, "INSERT INTO t VALUES ('tab\there', 'new\nline', 'back\\slash', 'cr\r', 'é漢')"),
            TraceEvent.statement(25, 2, "SELECT 1"),
            TraceEvent.of(30, 1, Kind.COMMIT),
            TraceEvent.of(40, 2, Kind.ROLLBACK));

    private Path write(Path file) throws Exception {
        try (TraceWriter w = new TraceWriter(file, Map.of("mix", "shopping", "note", "a\tb"))) {
            EVENTS.forEach(w::write);
        }
        return file;
    }

    @Test
    void roundTripKeepsEveryEventSessionOrderAndMetadata() throws Exception {
        Trace trace = TraceReader.read(write(dir.resolve("t.trace")));

        assertThat(trace.statements()).isEqualTo(2);
        assertThat(trace.events()).isEqualTo(6);
        assertThat(trace.metadata()).containsEntry("mix", "shopping").containsEntry("note", "a\tb");
        assertThat(trace.sessions().get(1)).containsExactly(EVENTS.get(0), EVENTS.get(1), EVENTS.get(2), EVENTS.get(4));
        assertThat(trace.sessions().get(2)).containsExactly(EVENTS.get(3), EVENTS.get(5));
        assertThat(trace.durationMicros()).isEqualTo(40);
    }

    @Test
    void truncatedTraceIsRefusedWithTheLine() throws Exception {
        Path file = write(dir.resolve("t.trace"));
        List<String> lines = Files.readAllLines(file);
        Files.write(file, lines.subList(0, lines.size() - 2)); // cut: last event and END gone

        assertThatThrownBy(() -> TraceReader.read(file))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining(file + ":" + (lines.size() - 2) + ":")
                .hasMessageContaining("truncated");
    }

    @Test
    void traceCutInTheMiddleOfALineIsRefused() throws Exception {
        Path file = write(dir.resolve("t.trace"));
        String text = Files.readString(file);
        Files.writeString(file, text.substring(0, text.indexOf("SELECT 1") + 3));

        assertThatThrownBy(() -> TraceReader.read(file))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("truncated");
    }

    @Test
    void traceOfAnotherSchemaVersionIsRefusedAtLineOne() throws Exception {
        Path file = write(dir.resolve("t.trace"));
        Files.writeString(file, Files.readString(file).replaceFirst("schema=1", "schema=99"));

        assertThatThrownBy(() -> TraceReader.read(file))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(file + ":1:")
                .hasMessageContaining("schema version 99");
    }

    @Test
    void endLineThatDisagreesWithTheEventsIsRefused() throws Exception {
        Path file = write(dir.resolve("t.trace"));
        Files.writeString(file, Files.readString(file).replace("statements=2", "statements=3"));

        assertThatThrownBy(() -> TraceReader.read(file))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("damaged");
    }

    @Test
    void garbageEventLineIsRefusedWithItsNumber() throws Exception {
        Path file = write(dir.resolve("t.trace"));
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(file));
        int metadataLines = 2;
        lines.set(1 + metadataLines + 1, "not an event");
        Files.write(file, lines);

        assertThatThrownBy(() -> TraceReader.read(file))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(file + ":" + (2 + metadataLines + 1) + ":");
    }

    @Test
    void fileThatIsNotATraceIsRefused() throws Exception {
        Path file = Files.writeString(dir.resolve("x.trace"), "hello\n");

        assertThatThrownBy(() -> TraceReader.read(file))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("not a RAIDb TPC-W trace");
    }
}
