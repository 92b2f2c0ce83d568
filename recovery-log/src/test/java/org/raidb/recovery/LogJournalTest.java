package org.raidb.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogJournalTest {

    @TempDir
    Path dir;

    private Path store() {
        return dir.resolve("recovery-log.mv.db");
    }

    @Test
    void recordsComeBackInTheOrderWrittenAcrossBothSegments() throws Exception {
        byte[] params = ParameterCodec.encode(List.of(42, "é", new java.math.BigDecimal("1.50")));
        LogEntry write = new LogEntry(
                7,
                EntryKind.WRITE,
                3,
                "alice",
                "UPDATE t SET x = ? WHERE y = ? AND z = ?",
                List.of(),
                List.of("t", "u"),
                Outcome.PENDING,
                Instant.ofEpochMilli(1_700_000_000_123L));
        LogEntry begin = LogEntry.begin(3, "alice").withPosition(6);
        try (LogJournal journal = LogJournal.open(store(), 1)) {
            journal.append(0, List.of(new GroupCommitWriter.Append(begin, null, null)));
            journal.append(1, List.of(new GroupCommitWriter.Append(write, params, null)));
            journal.append(0, List.of(new GroupCommitWriter.SetOutcome(7, Outcome.failed("23505"), null)));
        }
        try (LogJournal journal = LogJournal.open(store(), 1)) {
            List<GroupCommitWriter.Operation> ops = journal.recorded();
            assertThat(ops).hasSize(3);
            GroupCommitWriter.Append first = (GroupCommitWriter.Append) ops.get(0);
            assertThat(first.entry()).isEqualTo(begin);
            assertThat(first.parameters()).isNull();
            GroupCommitWriter.Append second = (GroupCommitWriter.Append) ops.get(1);
            assertThat(second.entry()).isEqualTo(write);
            assertThat(second.parameters()).isEqualTo(params);
            assertThat(ParameterCodec.decode(second.parameters()))
                    .containsExactly(42, "é", new java.math.BigDecimal("1.50"));
            assertThat(ops.get(2)).isEqualTo(new GroupCommitWriter.SetOutcome(7, Outcome.failed("23505"), null));
            journal.clear(0);
            assertThat(journal.recorded()).hasSize(1);
            journal.clear(1);
            assertThat(journal.recorded()).isEmpty();
            assertThat(journal.bytes()).isZero();
        }
    }

    @Test
    void aRecordCutShortOrCorruptedEndsItsSegment() throws Exception {
        try (LogJournal journal = LogJournal.open(store(), 2)) {
            for (int i = 1; i <= 3; i++) {
                journal.append(
                        0,
                        List.of(new GroupCommitWriter.Append(
                                LogEntry.autoCommitWrite("u", "DELETE FROM t", List.of(), List.of("t"))
                                        .withPosition(i),
                                null,
                                null)));
            }
        }
        Path segment = dir.resolve("recovery-log.2.journal-0");
        long size = Files.size(segment);
        // A crash in the middle of the third record's write: its tail is missing.
        try (FileChannel c = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            c.truncate(size - 5);
        }
        try (LogJournal journal = LogJournal.open(store(), 2)) {
            assertThat(journal.recorded())
                    .extracting(op -> ((GroupCommitWriter.Append) op).entry().position())
                    .containsExactly(1L, 2L);
        }
        // A flipped byte in the second record: it and what follows are not trusted.
        long recordLength = (size) / 3;
        try (FileChannel c = FileChannel.open(segment, StandardOpenOption.WRITE, StandardOpenOption.READ)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            c.read(one, recordLength + 20);
            one.flip();
            byte b = one.get();
            c.write(ByteBuffer.wrap(new byte[] {(byte) (b ^ 0x5a)}), recordLength + 20);
        }
        try (LogJournal journal = LogJournal.open(store(), 2)) {
            assertThat(journal.recorded())
                    .extracting(op -> ((GroupCommitWriter.Append) op).entry().position())
                    .containsExactly(1L);
        }
    }
}
