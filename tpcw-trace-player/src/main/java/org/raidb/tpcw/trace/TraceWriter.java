package org.raidb.tpcw.trace;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.raidb.tpcw.schema.TpcwSchema;

/**
 * Writes a trace; safe to share between the recording sessions. Events of different sessions
 * interleave in the file; each session's events keep their order, which is all the player needs.
 */
public final class TraceWriter implements AutoCloseable {

    private final BufferedWriter out;
    private long events;
    private long statements;

    /** Creates (or replaces) the file and writes the header; {@code metadata} becomes {@code # key=value} lines. */
    public TraceWriter(Path file, Map<String, String> metadata) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        out.write(
                TraceFormat.MAGIC + "\tformat=" + TraceFormat.FORMAT_VERSION + "\tschema=" + TpcwSchema.VERSION + "\n");
        for (Map.Entry<String, String> entry : metadata.entrySet()) {
            out.write("# " + entry.getKey() + "=" + TraceFormat.escape(entry.getValue()) + "\n");
        }
    }

    public synchronized void write(TraceEvent event) {
        try {
            out.write(Long.toString(event.offsetMicros()));
            out.write('\t');
            out.write(Integer.toString(event.session()));
            out.write('\t');
            out.write(event.kind().code());
            out.write('\t');
            out.write(TraceFormat.escape(event.text()));
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the trace", e);
        }
        events++;
        if (event.kind() == TraceEvent.Kind.STATEMENT) {
            statements++;
        }
    }

    public synchronized long statements() {
        return statements;
    }

    /** Writes the END line: a trace without it is reported as truncated. */
    @Override
    public synchronized void close() throws IOException {
        try {
            out.write(TraceFormat.END + "\tevents=" + events + "\tstatements=" + statements + "\n");
        } finally {
            out.close();
        }
    }
}
