package org.raidb.recovery;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * An append-only file in front of an embedded H2 store: a logged write is durable once its entry is in
 * the journal, and the entries reach the H2 store later, many per store commit.
 *
 * <p>Why: H2's MVStore writes every store commit as a new chunk (~15 KB: the entry table's rightmost leaf,
 * its parents, H2's own maps) and keeps a rewritten chunk's space for 45 s; with a commit per logged write
 * the file grew by kilobytes per entry and half of the log writer's CPU went to serialising chunks. A
 * journal record is the entries' own bytes. The journal has the durability the H2 store had with
 * {@code WRITE_DELAY=0}: each record is handed to the operating system before the write is acknowledged
 * (a controller process crash loses nothing; an OS crash may lose the last records, see
 * docs/recovery-log.md).
 *
 * <p>Two segment files: the writer appends to one while the entries of the other are being stored; once
 * they are committed in the store that segment is emptied and becomes the next one to append to. A
 * restart stores what both segments hold past the store's last position (an entry stored twice is
 * skipped; outcomes are applied again, in order), then empties them.
 *
 * <p>Record: {@code int length, int crc32c, long sequence, int count, count operations}. A record cut
 * short by a crash, or whose checksum does not match, ends its segment: it was never acknowledged.
 */
final class LogJournal implements AutoCloseable {

    private static final byte APPEND = 1;
    private static final byte OUTCOME = 2;
    private static final int HEADER = 8;

    private final Path[] files;
    private final FileChannel[] channels;
    private long sequence;

    private LogJournal(Path[] files, FileChannel[] channels) {
        this.files = files;
        this.channels = channels;
    }

    /** The journal of {@code store}'s virtual database {@code vdbId}: {@code <store file>.<vdbId>.journal-<0|1>}. */
    static LogJournal open(Path storeFile, int vdbId) throws IOException {
        String base = storeFile.getFileName().toString();
        if (base.endsWith(".mv.db")) {
            base = base.substring(0, base.length() - ".mv.db".length());
        }
        Path[] files = new Path[2];
        FileChannel[] channels = new FileChannel[2];
        try {
            for (int i = 0; i < 2; i++) {
                files[i] = storeFile.resolveSibling(base + "." + vdbId + ".journal-" + i);
                channels[i] = FileChannel.open(
                        files[i], StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            }
        } catch (IOException e) {
            for (FileChannel c : channels) {
                if (c != null) {
                    c.close();
                }
            }
            throw e;
        }
        return new LogJournal(files, channels);
    }

    /**
     * What both segments hold, in the order it was written: every complete record, up to the first one
     * that was cut short or does not match its checksum.
     */
    List<GroupCommitWriter.Operation> recorded() throws IOException {
        record Read(long sequence, List<GroupCommitWriter.Operation> operations) {}
        List<Read> records = new ArrayList<>();
        for (FileChannel channel : channels) {
            ByteBuffer all = ByteBuffer.allocate(Math.toIntExact(channel.size()));
            channel.read(all, 0);
            all.flip();
            while (all.remaining() >= HEADER) {
                int length = all.getInt();
                int crc = all.getInt();
                if (length < 12 || length > all.remaining()) {
                    break;
                }
                byte[] body = new byte[length];
                all.get(body);
                CRC32C check = new CRC32C();
                check.update(body);
                if ((int) check.getValue() != crc) {
                    break;
                }
                ByteBuffer in = ByteBuffer.wrap(body);
                long seq = in.getLong();
                int count = in.getInt();
                List<GroupCommitWriter.Operation> ops = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    ops.add(decode(in));
                }
                records.add(new Read(seq, ops));
            }
        }
        records.sort(Comparator.comparingLong(Read::sequence));
        List<GroupCommitWriter.Operation> ops = new ArrayList<>();
        for (Read r : records) {
            ops.addAll(r.operations());
            sequence = Math.max(sequence, r.sequence());
        }
        return ops;
    }

    /** Appends the appends and outcomes of {@code batch} to segment {@code segment} as one record. */
    void append(int segment, List<GroupCommitWriter.Operation> batch) throws IOException {
        Encoder out = new Encoder();
        out.buffer.position(HEADER);
        out.putLong(++sequence);
        int countAt = out.buffer.position();
        out.putInt(0);
        int count = 0;
        for (GroupCommitWriter.Operation op : batch) {
            if (op instanceof GroupCommitWriter.Append a) {
                encode(out, a);
                count++;
            } else if (op instanceof GroupCommitWriter.SetOutcome s) {
                out.put(OUTCOME);
                out.putLong(s.position());
                out.put((byte) s.outcome().status().code());
                out.putString(s.outcome().sqlState());
                count++;
            }
        }
        if (count == 0) {
            return;
        }
        ByteBuffer buffer = out.buffer;
        buffer.putInt(countAt, count);
        int length = buffer.position() - HEADER;
        CRC32C crc = new CRC32C();
        ByteBuffer body = buffer.duplicate();
        body.position(HEADER).limit(HEADER + length);
        crc.update(body);
        buffer.putInt(0, length);
        buffer.putInt(4, (int) crc.getValue());
        buffer.flip();
        FileChannel channel = channels[segment];
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    /** Empties {@code segment}: everything in it is committed in the store. */
    void clear(int segment) throws IOException {
        channels[segment].truncate(0);
        channels[segment].position(0);
    }

    /** Both segments' bytes on disk. */
    long bytes() {
        long total = 0;
        for (Path f : files) {
            try {
                total += Files.size(f);
            } catch (IOException e) {
                // being truncated or gone: counts as empty
            }
        }
        return total;
    }

    @Override
    public void close() throws IOException {
        IOException first = null;
        for (FileChannel c : channels) {
            try {
                c.close();
            } catch (IOException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private static void encode(Encoder out, GroupCommitWriter.Append a) {
        LogEntry e = a.entry();
        out.put(APPEND);
        out.putLong(e.position());
        out.put((byte) e.kind().code());
        out.putLong(e.transactionId());
        out.putString(e.login());
        out.putString(e.sql());
        out.putInt(e.tablesWritten().size());
        for (String t : e.tablesWritten()) {
            out.putString(t);
        }
        out.putBytes(a.parameters());
        out.put((byte) e.outcome().status().code());
        out.putString(e.outcome().sqlState());
        out.putLong(e.loggedAt().toEpochMilli());
    }

    private static GroupCommitWriter.Operation decode(ByteBuffer in) {
        byte type = in.get();
        if (type == OUTCOME) {
            long position = in.getLong();
            Outcome.Status status = Outcome.Status.ofCode(in.get());
            String sqlState = getString(in);
            return new GroupCommitWriter.SetOutcome(position, outcome(status, sqlState), null);
        }
        if (type != APPEND) {
            throw new IllegalStateException("journal operation type " + type + " unknown (written by a newer RAIDb?)");
        }
        long position = in.getLong();
        EntryKind kind = EntryKind.ofCode(in.get());
        long tx = in.getLong();
        String login = getString(in);
        String sql = getString(in);
        int tableCount = in.getInt();
        String[] tables = new String[tableCount];
        for (int i = 0; i < tableCount; i++) {
            tables[i] = getString(in);
        }
        byte[] parameters = getBytes(in);
        Outcome.Status status = Outcome.Status.ofCode(in.get());
        String sqlState = getString(in);
        Instant loggedAt = Instant.ofEpochMilli(in.getLong());
        // The parameters stay encoded: the store keeps them as they are.
        LogEntry entry = new LogEntry(
                position, kind, tx, login, sql, List.of(), Arrays.asList(tables), outcome(status, sqlState), loggedAt);
        return new GroupCommitWriter.Append(entry, parameters, null);
    }

    private static Outcome outcome(Outcome.Status status, String sqlState) {
        return status == Outcome.Status.FAILED ? Outcome.failed(sqlState) : new Outcome(status, null);
    }

    private static String getString(ByteBuffer in) {
        byte[] bytes = getBytes(in);
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    private static byte[] getBytes(ByteBuffer in) {
        int length = in.getInt();
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        in.get(bytes);
        return bytes;
    }

    /** A growing buffer: batches range from one entry to thousands. */
    private static final class Encoder {
        ByteBuffer buffer = ByteBuffer.allocate(4096);

        void put(byte b) {
            room(1).put(b);
        }

        void putInt(int v) {
            room(4).putInt(v);
        }

        void putLong(long v) {
            room(8).putLong(v);
        }

        void putString(String s) {
            putBytes(s == null ? null : s.getBytes(StandardCharsets.UTF_8));
        }

        void putBytes(byte[] bytes) {
            if (bytes == null) {
                putInt(-1);
                return;
            }
            putInt(bytes.length);
            room(bytes.length).put(bytes);
        }

        private ByteBuffer room(int n) {
            if (buffer.remaining() < n) {
                ByteBuffer bigger = ByteBuffer.allocate(Math.max(buffer.capacity() * 2, buffer.position() + n));
                buffer.flip();
                bigger.put(buffer);
                buffer = bigger;
            }
            return buffer;
        }
    }
}
