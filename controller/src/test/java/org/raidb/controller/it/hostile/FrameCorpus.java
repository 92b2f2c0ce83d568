package org.raidb.controller.it.hostile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.raidb.driver.protocol.PayloadWriter;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.SqlArray;
import org.raidb.driver.protocol.SqlNull;
import org.raidb.driver.protocol.TypedText;

/**
 * Valid frames of every request type, byte for byte as the driver writes them (built with its codec):
 * what a fuzzer mutates. Statements use one table, made by {@link #createTable}.
 */
final class FrameCorpus {
    private FrameCorpus() {}

    static String createTable(String table) {
        return "CREATE TABLE " + table + " (id int PRIMARY KEY, v text, d numeric, t timestamptz)";
    }

    /** Frames a connection may start with: logins (right and wrong), a cancel. */
    static List<byte[]> beforeLogin(String vdb, String user, String password) {
        List<byte[]> frames = new ArrayList<>();
        frames.add(frame(w -> w.begin(Protocol.HELLO)
                .writeInt(Protocol.MAGIC)
                .writeInt(Protocol.VERSION)
                .writeString(vdb)
                .writeString(user)
                .writeString(password)
                .writeStringMap(Map.of("ApplicationName", "fuzz", "client", "raidb"))));
        frames.add(frame(w -> WireClient.helloFrame(w, vdb, user, "not the password")));
        frames.add(frame(w ->
                w.begin(Protocol.CANCEL).writeInt(Protocol.MAGIC).writeLong(1).writeLong(42)));
        return frames;
    }

    /** Every request of a logged-in session. */
    static List<byte[]> afterLogin(String table) {
        List<byte[]> frames = new ArrayList<>();
        frames.add(execute("SELECT 1", null, Protocol.MODE_QUERY, 0, null, 0));
        frames.add(execute(
                "SELECT id, v FROM " + table + " WHERE id > ? ORDER BY id",
                List.of(0),
                Protocol.MODE_QUERY,
                0,
                null,
                2));
        frames.add(execute(
                "INSERT INTO " + table + " (id, v, d, t) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                List.of(
                        7,
                        "seven",
                        new BigDecimal("7.70"),
                        OffsetDateTime.of(2024, 5, 6, 7, 8, 9, 0, ZoneOffset.ofHours(2))),
                Protocol.MODE_UPDATE,
                Protocol.FLAG_RETURN_GENERATED_KEYS,
                List.of("id"),
                0));
        frames.add(execute(
                "UPDATE " + table + " SET v = ? WHERE id = ?",
                List.of("updated", 7),
                Protocol.MODE_UPDATE,
                0,
                null,
                0));
        frames.add(execute(
                "SELECT ?::int, ?::boolean, ?::int, ?::bigint, ?::real, ?::float8, ?::numeric, ?::text, ?::bytea, "
                        + "?::date, ?::time, ?::timestamp, ?::timestamptz, ?::uuid, ?::smallint, ?::timetz, ?::int4[]",
                List.of(
                        SqlNull.of(Types.INTEGER),
                        true,
                        42,
                        1L << 40,
                        1.5f,
                        2.25d,
                        new BigDecimal("123.45"),
                        "héllo",
                        new byte[] {1, 2, 3},
                        LocalDate.of(2024, 2, 29),
                        LocalTime.of(23, 59, 58),
                        LocalDateTime.of(1999, 12, 31, 23, 59),
                        OffsetDateTime.of(2024, 1, 2, 3, 4, 5, 6, ZoneOffset.ofHoursMinutes(5, 30)),
                        new UUID(1, 2),
                        (short) -7,
                        OffsetTime.of(10, 11, 12, 0, ZoneOffset.ofHours(-3)),
                        new TypedText("int4[]", "{1,2}")),
                Protocol.MODE_ANY,
                0,
                null,
                0));
        frames.add(frame(w -> w.begin(Protocol.FETCH).writeLong(1).writeInt(10)));
        frames.add(frame(w -> w.begin(Protocol.CLOSE_CURSOR).writeLong(1)));
        frames.add(frame(w -> w.begin(Protocol.BATCH)
                .writeByte(0)
                .writeInt(0)
                .writeInt(0)
                .writeStringList(null)
                .writeStringList(List.of(
                        "INSERT INTO " + table + " (id, v) VALUES (8, 'eight') ON CONFLICT (id) DO NOTHING",
                        "UPDATE " + table + " SET d = 8 WHERE id = 8"))));
        frames.add(frame(w -> {
            w.begin(Protocol.BATCH)
                    .writeByte(1)
                    .writeInt(5)
                    .writeInt(Protocol.FLAG_RETURN_GENERATED_KEYS)
                    .writeStringList(List.of("id"))
                    .writeString("INSERT INTO " + table
                            + " (id, v) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET v = excluded.v")
                    .writeInt(3);
            for (int i = 10; i < 13; i++) {
                w.writeInt(2).writeValue(i).writeValue("row " + i);
            }
        }));
        frames.add(transaction(Protocol.TX_SET_AUTOCOMMIT, w -> w.writeBoolean(false)));
        frames.add(transaction(Protocol.TX_SET_SAVEPOINT, w -> w.writeString("s1")));
        frames.add(transaction(Protocol.TX_ROLLBACK_TO_SAVEPOINT, w -> w.writeString("s1")));
        frames.add(transaction(Protocol.TX_RELEASE_SAVEPOINT, w -> w.writeString("s1")));
        frames.add(transaction(Protocol.TX_COMMIT, w -> {}));
        frames.add(transaction(Protocol.TX_ROLLBACK, w -> {}));
        frames.add(transaction(Protocol.TX_SET_AUTOCOMMIT, w -> w.writeBoolean(true)));
        frames.add(
                transaction(Protocol.TX_SET_ISOLATION, w -> w.writeInt(java.sql.Connection.TRANSACTION_SERIALIZABLE)));
        frames.add(transaction(Protocol.TX_SET_READ_ONLY, w -> w.writeBoolean(false)));
        frames.add(metadata("getTables", null, "public", table, new TypedText("text[]", "TABLE,VIEW")));
        frames.add(metadata("getColumns", null, null, table, "%"));
        frames.add(metadata("getPrimaryKeys", null, "public", table));
        frames.add(metadata("getTypeInfo"));
        frames.add(metadata("getUDTs", null, null, "%", new TypedText("int4[]", "2000,2002")));
        frames.add(metadata("getIndexInfo", null, "public", table, false, true));
        frames.add(execute(
                "SELECT ?::int[]", List.of(new SqlArray("int4", List.of(1, 2, 3))), Protocol.MODE_QUERY, 0, null, 0));
        frames.add(frame(w -> w.begin(Protocol.DESCRIBE).writeString("SELECT v FROM " + table + " WHERE id = ?")));
        frames.add(frame(w -> w.begin(Protocol.CLIENT_INFO)
                .writeString(Protocol.APPLICATION_NAME)
                .writeString("fuzz")));
        frames.add(frame(w -> w.begin(Protocol.PING).writeInt(5)));
        return frames;
    }

    private static byte[] execute(String sql, List<Object> params, byte mode, int flags, List<String> keys, int fetch) {
        return frame(w -> {
            w.begin(Protocol.EXECUTE).writeString(sql);
            if (params == null) {
                w.writeInt(-1);
            } else {
                w.writeInt(params.size());
                params.forEach(w::writeValue);
            }
            w.writeByte(mode)
                    .writeInt(flags)
                    .writeStringList(keys)
                    .writeInt(fetch)
                    .writeLong(0)
                    .writeInt(0);
        });
    }

    private static byte[] transaction(byte op, Consumer<PayloadWriter> argument) {
        return frame(w -> argument.accept(w.begin(Protocol.TRANSACTION).writeByte(op)));
    }

    private static byte[] metadata(String method, Object... args) {
        return frame(w -> {
            w.begin(Protocol.METADATA).writeString(method).writeInt(args.length);
            for (Object a : args) {
                w.writeValue(a);
            }
        });
    }

    private static byte[] frame(Consumer<PayloadWriter> build) {
        PayloadWriter w = new PayloadWriter();
        build.accept(w);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            w.send(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
