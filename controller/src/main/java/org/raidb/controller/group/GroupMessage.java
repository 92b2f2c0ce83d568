package org.raidb.controller.group;

import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.raidb.controller.request.ExecuteRequest;
import org.raidb.driver.protocol.BatchFrame;
import org.raidb.driver.protocol.ParameterList;
import org.raidb.driver.protocol.PayloadReader;
import org.raidb.driver.protocol.PayloadWriter;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.ProtocolException;

/**
 * What controllers of a group tell each other, encoded with the client protocol's own value codec
 * (parameters travel exactly as clients send them). What is sent to all goes in the total order
 * ({@link Write}s, and the handover's, catch-up's and membership's messages to all); answers ({@link
 * Done}, {@link Status}) and a catch-up's dumps go to one member.
 */
sealed interface GroupMessage {
    byte WRITE = 1;
    byte DONE = 2;
    byte VERDICT = 3;
    byte ANNOUNCE = 4;
    byte STATUS_ASK = 5;
    byte STATUS = 6;
    byte POSITION = 7;
    byte FILL = 8;
    byte CATCH_UP_ASK = 9;
    byte CATCH_UP_START = 10;
    byte CATCH_UP_CHUNK = 11;
    byte CATCH_UP_ABORT = 12;
    byte CAUGHT_UP = 13;

    /** What a write message asks every controller to run for the origin's session. */
    enum Op {
        EXECUTE,
        BATCH,
        COMMIT,
        ROLLBACK,
        SAVEPOINT,
        /** The origin's client session ended: its transaction is rolled back, its shadow session dropped. */
        END_SESSION
    }

    /**
     * A client's write, transaction end or savepoint, as every controller runs it.
     *
     * @param origin the member whose client sent it
     * @param session the client session's id on the origin
     * @param seq the origin's number for it, unique per origin
     * @param tx the transaction it belongs to in the group's conflict classes: one id per origin
     *     transaction, or per statement in auto-commit mode
     * @param autoCommit whether the session ran it in auto-commit mode
     * @param isolation the session's isolation level (-1: the backends' default)
     * @param readOnly the session's read-only mode
     * @param user the session's virtual user
     * @param clientSession the driver's id of its logical connection (failover), or null
     * @param requestId the driver's number for the request, or 0
     * @param execute {@link Op#EXECUTE}: the statement as every backend runs it
     * @param batch {@link Op#BATCH}: the batch as every backend runs it
     * @param savepoint {@link Op#SAVEPOINT}: the command, a space, the name
     * @param view the number of the origin's view when it sent the write (a member that has not installed
     *     that view yet keeps it until it has: {@link ActiveReplication#received})
     */
    record Write(
            long view,
            String origin,
            long session,
            long seq,
            String tx,
            Op op,
            boolean autoCommit,
            int isolation,
            boolean readOnly,
            String user,
            String clientSession,
            long requestId,
            ExecuteRequest execute,
            BatchFrame batch,
            String savepoint)
            implements GroupMessage {}

    /**
     * A member finished a write: {@code outcome} is the update counts or the error's SQLState, as
     * compared between members.
     */
    record Done(String origin, long seq, String member, String outcome) implements GroupMessage {}

    /** The members' majority disagreed with {@code member} on a write: it disables its backends. */
    record Verdict(String member, String reason) implements GroupMessage {}

    /**
     * A member's identity, sent to all when the view changes: its controller's name and what must be the
     * same on every member (RAIDb level, table placement), and how many writes it had had delivered
     * when view {@code view} was installed, the one it sends in (a newcomer must not join a group that
     * has written without it; after a merge, the parts compare what they hold: {@link MergeRule}).
     * {@code stale}: it served the group before, stopped while others went on, and has not caught up yet
     * ({@link GroupHistory}): it waits for a member that is not stale and is never a catch-up's donor.
     */
    record Announce(long view, String member, String controller, String fingerprint, long delivered, boolean stale)
            implements GroupMessage {}

    record StatusAsk(String from, long id) implements GroupMessage {}

    record Status(long id, String member, List<String> backends, long delivered, long applied)
            implements GroupMessage {}

    /**
     * After the sequencer left: how many writes this member had delivered when the view changed, in
     * the view numbered {@code viewId} ({@link SequencerHandover}).
     */
    record Position(String member, long viewId, long position) implements GroupMessage {}

    /**
     * After the sequencer left: the writes the member furthest ahead had delivered past the position of
     * the one furthest behind, with their positions, for every member that lacks them.
     */
    record Fill(String donor, long viewId, long upTo, List<DeliveredWrites.Numbered> writes) implements GroupMessage {}

    /**
     * A controller joining a group that has ordered writes asks for its backends' contents; where this is
     * delivered in the total order is the catch-up's barrier ({@link CatchUpBarrier}).
     *
     * @param tableSets what each of the joiner's backends holds: "" for every table, else the sorted
     *     table names joined by commas
     */
    record CatchUpAsk(String joiner, List<String> tableSets) implements GroupMessage {}

    /**
     * The donor to the joiner, before the dumps: its position in the group's order at the barrier, the
     * transactions open there (their writes after it are in the dumps), and each dump's format, one per
     * table set asked for.
     */
    record CatchUpStart(String joiner, String donor, long position, List<String> openTransactions, List<String> formats)
            implements GroupMessage {}

    /** A piece of dump {@code dump} (an index into the table sets asked for). */
    @SuppressWarnings("ArrayRecordComponent") // bytes in transit, never compared or kept
    record CatchUpChunk(String joiner, int dump, byte[] bytes, boolean last) implements GroupMessage {}

    /**
     * The catch-up of {@code joiner} is given up, with why; the members go on without it. {@code retry}:
     * the joiner may ask again at once (the group was busy, not broken).
     */
    record CatchUpAbort(String joiner, String reason, boolean retry) implements GroupMessage {}

    /** The joiner has its backends and runs the writes after the barrier: it counts as a member again. */
    record CaughtUp(String joiner) implements GroupMessage {}

    static byte[] encode(GroupMessage m) {
        PayloadWriter w = new PayloadWriter();
        if (m instanceof Write x) {
            w.begin(WRITE)
                    .writeLong(x.view())
                    .writeString(x.origin())
                    .writeLong(x.session())
                    .writeLong(x.seq());
            w.writeString(x.tx()).writeString(x.op().name()).writeBoolean(x.autoCommit());
            w.writeInt(x.isolation()).writeBoolean(x.readOnly()).writeString(x.user());
            w.writeString(x.clientSession()).writeLong(x.requestId()).writeString(x.savepoint());
            ExecuteRequest r = x.execute();
            w.writeBoolean(r != null);
            if (r != null) {
                w.writeString(r.sql());
                ParameterList.write(w, r.parameters());
                w.writeByte(r.mode()).writeBoolean(r.returnGeneratedKeys()).writeStringList(r.keyColumns());
                w.writeInt(r.fetchSize()).writeLong(r.maxRows()).writeInt(r.queryTimeoutSeconds());
                w.writeBoolean(r.call()).writeBoolean(r.escapeProcessing());
            }
            w.writeBoolean(x.batch() != null);
            if (x.batch() != null) {
                PayloadWriter b = new PayloadWriter();
                x.batch().write(b);
                ByteBuffer frame = b.written(1, b.size()); // without the frame's type byte
                byte[] bytes = new byte[frame.remaining()];
                frame.get(bytes);
                w.writeBytes(bytes);
            }
        } else if (m instanceof Done x) {
            w.begin(DONE)
                    .writeString(x.origin())
                    .writeLong(x.seq())
                    .writeString(x.member())
                    .writeString(x.outcome());
        } else if (m instanceof Verdict x) {
            w.begin(VERDICT).writeString(x.member()).writeString(x.reason());
        } else if (m instanceof Announce x) {
            w.begin(ANNOUNCE)
                    .writeLong(x.view())
                    .writeString(x.member())
                    .writeString(x.controller())
                    .writeString(x.fingerprint())
                    .writeLong(x.delivered())
                    .writeBoolean(x.stale());
        } else if (m instanceof StatusAsk x) {
            w.begin(STATUS_ASK).writeString(x.from()).writeLong(x.id());
        } else if (m instanceof Position x) {
            w.begin(POSITION).writeString(x.member()).writeLong(x.viewId()).writeLong(x.position());
        } else if (m instanceof Fill x) {
            w.begin(FILL).writeString(x.donor()).writeLong(x.viewId()).writeLong(x.upTo());
            w.writeInt(x.writes().size());
            for (DeliveredWrites.Numbered n : x.writes()) {
                w.writeLong(n.position()).writeBytes(encode(n.write()));
            }
        } else if (m instanceof CatchUpAsk x) {
            w.begin(CATCH_UP_ASK).writeString(x.joiner()).writeStringList(x.tableSets());
        } else if (m instanceof CatchUpStart x) {
            w.begin(CATCH_UP_START)
                    .writeString(x.joiner())
                    .writeString(x.donor())
                    .writeLong(x.position());
            w.writeStringList(x.openTransactions()).writeStringList(x.formats());
        } else if (m instanceof CatchUpChunk x) {
            w.begin(CATCH_UP_CHUNK).writeString(x.joiner()).writeInt(x.dump()).writeBytes(x.bytes());
            w.writeBoolean(x.last());
        } else if (m instanceof CatchUpAbort x) {
            w.begin(CATCH_UP_ABORT)
                    .writeString(x.joiner())
                    .writeString(x.reason())
                    .writeBoolean(x.retry());
        } else if (m instanceof CaughtUp x) {
            w.begin(CAUGHT_UP).writeString(x.joiner());
        } else if (m instanceof Status x) {
            w.begin(STATUS)
                    .writeLong(x.id())
                    .writeString(x.member())
                    .writeStringList(x.backends())
                    .writeLong(x.delivered())
                    .writeLong(x.applied());
        }
        ByteBuffer all = w.written(0, w.size());
        byte[] bytes = new byte[all.remaining()];
        all.get(bytes);
        return bytes;
    }

    static GroupMessage decode(byte[] bytes, int offset, int length) throws ProtocolException, SQLException {
        byte type = bytes[offset];
        PayloadReader r = new PayloadReader(type, bytes, offset + 1, offset + length);
        return switch (type) {
            case WRITE -> {
                long view = r.readLong();
                String origin = r.readString();
                long session = r.readLong();
                long seq = r.readLong();
                String tx = r.readString();
                Op op = Op.valueOf(r.readString());
                boolean autoCommit = r.readBoolean();
                int isolation = r.readInt();
                boolean readOnly = r.readBoolean();
                String user = r.readString();
                String clientSession = r.readString();
                long requestId = r.readLong();
                String savepoint = r.readString();
                ExecuteRequest execute = null;
                if (r.readBoolean()) {
                    String sql = r.readString();
                    List<Object> parameters = ParameterList.read(r);
                    byte mode = r.readByte();
                    boolean keys = r.readBoolean();
                    List<String> keyColumns = r.readStringList();
                    int fetchSize = r.readInt();
                    long maxRows = r.readLong();
                    int timeout = r.readInt();
                    boolean call = r.readBoolean();
                    execute = new ExecuteRequest(
                            sql,
                            parameters,
                            mode,
                            keys,
                            keyColumns,
                            fetchSize,
                            maxRows,
                            timeout,
                            call,
                            r.readBoolean());
                }
                BatchFrame batch = null;
                if (r.readBoolean()) {
                    byte[] frame = r.readBytes();
                    batch = BatchFrame.read(new PayloadReader(Protocol.BATCH, frame, 0, frame.length));
                }
                yield new Write(
                        view,
                        origin,
                        session,
                        seq,
                        tx,
                        op,
                        autoCommit,
                        isolation,
                        readOnly,
                        user,
                        clientSession,
                        requestId,
                        execute,
                        batch,
                        savepoint);
            }
            case DONE -> new Done(r.readString(), r.readLong(), r.readString(), r.readString());
            case VERDICT -> new Verdict(r.readString(), r.readString());
            case ANNOUNCE ->
                new Announce(
                        r.readLong(), r.readString(), r.readString(), r.readString(), r.readLong(), r.readBoolean());
            case STATUS_ASK -> new StatusAsk(r.readString(), r.readLong());
            case STATUS -> {
                long id = r.readLong();
                String member = r.readString();
                List<String> backends = new ArrayList<>(r.readStringList());
                yield new Status(id, member, backends, r.readLong(), r.readLong());
            }
            case CATCH_UP_ASK -> new CatchUpAsk(r.readString(), r.readStringList());
            case CATCH_UP_START ->
                new CatchUpStart(r.readString(), r.readString(), r.readLong(), r.readStringList(), r.readStringList());
            case CATCH_UP_CHUNK -> new CatchUpChunk(r.readString(), r.readInt(), r.readBytes(), r.readBoolean());
            case CATCH_UP_ABORT -> new CatchUpAbort(r.readString(), r.readString(), r.readBoolean());
            case CAUGHT_UP -> new CaughtUp(r.readString());
            case POSITION -> new Position(r.readString(), r.readLong(), r.readLong());
            case FILL -> {
                String donor = r.readString();
                long viewId = r.readLong();
                long upTo = r.readLong();
                int n = r.readCount(12);
                List<DeliveredWrites.Numbered> writes = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    long position = r.readLong();
                    byte[] write = r.readBytes();
                    writes.add(new DeliveredWrites.Numbered(position, (Write) decode(write, 0, write.length)));
                }
                yield new Fill(donor, viewId, upTo, writes);
            }
            default -> throw new ProtocolException("unknown controller-group message type " + type);
        };
    }
}
