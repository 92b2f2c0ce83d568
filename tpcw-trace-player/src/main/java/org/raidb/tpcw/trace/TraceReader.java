package org.raidb.tpcw.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.raidb.tpcw.schema.TpcwSchema;

/** Reads and checks a whole trace file; any problem is a {@link TraceFormatException} naming the line. */
public final class TraceReader {

    private final Path file;
    private int lineNumber;

    private TraceReader(Path file) {
        this.file = file;
    }

    public static Trace read(Path file) throws TraceFormatException, IOException {
        return new TraceReader(file).read();
    }

    private Trace read() throws TraceFormatException, IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            header(in.readLine());
            Map<String, String> metadata = new LinkedHashMap<>();
            Map<Integer, List<TraceEvent>> sessions = new TreeMap<>();
            long statements = 0;
            long events = 0;
            String line;
            while ((line = in.readLine()) != null) {
                lineNumber++;
                if (line.startsWith("# ")) {
                    int equals = line.indexOf('=');
                    if (equals > 2) {
                        metadata.put(line.substring(2, equals), TraceFormat.unescape(line.substring(equals + 1)));
                    }
                } else if (line.startsWith(TraceFormat.END)) {
                    checkEnd(line, events, statements);
                    if (in.readLine() != null) {
                        throw error(lineNumber + 1, "lines after the END line: two traces written into one file?");
                    }
                    return new Trace(metadata, sessions, statements, events);
                } else {
                    TraceEvent event = event(line);
                    sessions.computeIfAbsent(event.session(), s -> new ArrayList<>())
                            .add(event);
                    events++;
                    if (event.kind() == TraceEvent.Kind.STATEMENT) {
                        statements++;
                    }
                }
            }
            throw error(
                    lineNumber,
                    "the trace is truncated: it ends without its END line (was the recording interrupted,"
                            + " or the file cut?)");
        } catch (NoSuchFileException e) {
            throw new TraceFormatException(file + ": no such trace file");
        } catch (java.nio.charset.MalformedInputException e) {
            throw error(lineNumber + 1, "not UTF-8 text: not a trace file");
        }
    }

    private void header(String first) throws TraceFormatException {
        lineNumber = 1;
        if (first == null) {
            throw error(1, "the file is empty: not a trace");
        }
        String[] fields = first.split("\t", -1);
        if (!fields[0].equals(TraceFormat.MAGIC)) {
            throw error(1, "not a RAIDb TPC-W trace (the first line should start with " + TraceFormat.MAGIC + ")");
        }
        Map<String, String> versions = new LinkedHashMap<>();
        for (int i = 1; i < fields.length; i++) {
            String[] kv = fields[i].split("=", 2);
            versions.put(kv[0], kv.length > 1 ? kv[1] : "");
        }
        String format = versions.getOrDefault("format", "?");
        if (!format.equals(Integer.toString(TraceFormat.FORMAT_VERSION))) {
            throw error(
                    1, "trace format version " + format + ", this player reads version " + TraceFormat.FORMAT_VERSION);
        }
        String schema = versions.getOrDefault("schema", "?");
        if (!schema.equals(Integer.toString(TpcwSchema.VERSION))) {
            throw error(
                    1,
                    "the trace was recorded against TPC-W schema version " + schema
                            + " but this player's schema is version " + TpcwSchema.VERSION
                            + ": populate and record again with this version");
        }
    }

    private TraceEvent event(String line) throws TraceFormatException {
        String[] fields = line.split("\t", 4);
        if (fields.length < 3 || fields[2].length() != 1) {
            throw error(
                    lineNumber,
                    "cannot read this event line (expected OFFSET, SESSION, KIND and TEXT separated by tabs)");
        }
        long offset;
        int session;
        try {
            offset = Long.parseLong(fields[0]);
            session = Integer.parseInt(fields[1]);
        } catch (NumberFormatException e) {
            throw error(
                    lineNumber,
                    "offset and session must be whole numbers, not '" + fields[0] + "' and '" + fields[1] + "'");
        }
        TraceEvent.Kind kind = TraceEvent.Kind.of(fields[2].charAt(0));
        if (kind == null || session < 1 || offset < 0) {
            throw error(
                    lineNumber, "unknown event kind '" + fields[2] + "' or bad session/offset (kinds: I, B, S, C, R)");
        }
        String text = TraceFormat.unescape(fields.length == 4 ? fields[3] : "");
        if (text == null || (kind == TraceEvent.Kind.STATEMENT && text.isBlank())) {
            throw error(lineNumber, "damaged statement text (bad escape or empty SQL)");
        }
        return new TraceEvent(offset, session, kind, text);
    }

    private void checkEnd(String line, long events, long statements) throws TraceFormatException {
        String expected = TraceFormat.END + "\tevents=" + events + "\tstatements=" + statements;
        if (!line.equals(expected)) {
            throw error(
                    lineNumber,
                    "the END line says '" + line.replace('\t', ' ') + "' but the file holds " + events + " events and "
                            + statements + " statements: the trace is damaged");
        }
    }

    private TraceFormatException error(int line, String message) {
        return new TraceFormatException(file + ":" + line + ": " + message);
    }
}
