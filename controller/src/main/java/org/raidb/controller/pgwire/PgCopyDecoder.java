package org.raidb.controller.pgwire;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of a {@code COPY FROM STDIN}, from CopyData messages however the client cut them: a message may
 * end inside a line, inside a UTF-8 character, or (CSV) inside a quoted field that spans lines. Each complete
 * row is checked against the number of columns copied into, as PostgreSQL checks it.
 */
final class PgCopyDecoder {
    /** A CSV quote left open this long is a broken file, not a value: the row is refused. */
    private static final int MAX_ROW_CHARS = 16 * 1024 * 1024;

    private final PgCopyFormat format;
    private final List<String> columns;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    /** A CSV row whose quoted field goes on past the line read so far; null when none. */
    private StringBuilder openCsvRow;

    private boolean headerSkipped;
    private boolean ended;
    private long line;

    PgCopyDecoder(PgCopyFormat format, List<String> columns) {
        this.format = format;
        this.columns = columns;
        this.headerSkipped = !format.header();
    }

    /** The rows completed by this CopyData's bytes. */
    List<List<String>> feed(byte[] data) throws SQLException {
        int lastNewline = -1;
        for (int i = data.length - 1; i >= 0; i--) {
            if (data[i] == '\n') { // never inside a UTF-8 sequence: its bytes are all above 0x7F
                lastNewline = i;
                break;
            }
        }
        if (lastNewline < 0) {
            pending.write(data, 0, data.length);
            return List.of();
        }
        pending.write(data, 0, lastNewline + 1);
        String text = utf8(pending.toByteArray());
        pending.reset();
        pending.write(data, lastNewline + 1, data.length - lastNewline - 1);
        List<List<String>> rows = new ArrayList<>();
        int start = 0;
        for (int nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
            lineRead(text.substring(start, nl), rows);
            start = nl + 1;
        }
        return rows;
    }

    /** At CopyDone: a last line without its line break, and no CSV quote may be left open. */
    List<List<String>> finish() throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        if (pending.size() > 0) {
            lineRead(utf8(pending.toByteArray()), rows);
            pending.reset();
        }
        if (openCsvRow != null) {
            throw error("unterminated CSV quoted field");
        }
        return rows;
    }

    private void lineRead(String text, List<List<String>> rows) throws SQLException {
        line++;
        if (ended) {
            return; // after the end marker PostgreSQL reads nothing more either
        }
        if (!format.csv()) {
            String l = text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            if (l.equals("\\.")) {
                ended = true;
                return;
            }
            row(format.textFields(l), rows);
            return;
        }
        if (openCsvRow == null && (text.equals("\\.") || text.equals("\\.\r"))) {
            ended = true;
            return;
        }
        String joined =
                openCsvRow == null ? text : openCsvRow.append('\n').append(text).toString();
        List<String> fields = null;
        if (joined.endsWith("\r")) {
            fields = csvFields(joined.substring(0, joined.length() - 1)); // CRLF line ends
        }
        if (fields == null) {
            fields = csvFields(joined);
        }
        if (fields == null) {
            if (joined.length() > MAX_ROW_CHARS) {
                throw error("unterminated CSV quoted field");
            }
            openCsvRow = new StringBuilder(joined);
            return;
        }
        openCsvRow = null;
        row(fields, rows);
    }

    private void row(List<String> fields, List<List<String>> rows) throws SQLException {
        if (!headerSkipped) {
            headerSkipped = true;
            return;
        }
        if (fields.size() < columns.size()) {
            throw error("missing data for column " + columns.get(fields.size()));
        }
        if (fields.size() > columns.size()) {
            throw error("extra data after last expected column");
        }
        rows.add(fields);
    }

    /** A CSV row's fields; null while a quoted field is still open at the end of the text. */
    private List<String> csvFields(String row) {
        char delimiter = format.delimiter();
        char quote = format.quote();
        char escape = format.escape();
        List<String> fields = new ArrayList<>();
        int i = 0;
        int n = row.length();
        while (true) {
            StringBuilder v = new StringBuilder();
            boolean inQuote = false;
            boolean quoted = false;
            while (i < n) {
                char c = row.charAt(i);
                if (inQuote) {
                    if (c == escape && i + 1 < n && (row.charAt(i + 1) == quote || row.charAt(i + 1) == escape)) {
                        v.append(row.charAt(i + 1));
                        i += 2;
                    } else if (c == quote) {
                        inQuote = false;
                        i++;
                    } else {
                        v.append(c);
                        i++;
                    }
                } else if (c == quote) {
                    inQuote = true;
                    quoted = true;
                    i++;
                } else if (c == delimiter) {
                    break;
                } else {
                    v.append(c);
                    i++;
                }
            }
            if (inQuote) {
                return null;
            }
            String value = v.toString();
            fields.add(!quoted && value.equals(format.nullString()) ? null : value);
            if (i >= n) {
                return fields;
            }
            i++; // the delimiter
        }
    }

    private String utf8(byte[] bytes) throws SQLException {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new SQLException(
                    "invalid byte sequence for encoding \"UTF8\" in COPY data near line " + (line + 1), "22021");
        }
    }

    private SQLException error(String what) {
        return new SQLException(what + " (COPY data, line " + line + ")", PgCopyFormat.BAD_COPY_FILE_FORMAT);
    }

    long lines() {
        return line;
    }
}
