package org.raidb.controller.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The codec against byte streams laid out as psql, pgjdbc and PostgreSQL 15 send them (the messages of the
 * protocol documentation, byte for byte), and the value formats against what PostgreSQL 15 itself prints and
 * sends ({@code numeric_send}, {@code timestamp_send}).
 */
class PgCodecTest {
    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    @Test
    void readsPsqlsStartupPacket() throws Exception {
        // psql -h 127.0.0.1 -U app -d shop: user, database, application_name, client_encoding.
        byte[] body = hex("0000004b 00030000"
                + "7573657200 61707000 646174616261736500 73686f7000"
                + "6170706c69636174696f6e5f6e616d6500 7073716c00"
                + "636c69656e745f656e636f64696e6700 5554463800 00");
        PgMessageReader r = new PgMessageReader(new ByteArrayInputStream(body), 65536);
        PgMessage m = r.startup();
        assertThat(m.readInt()).isEqualTo(PgStartup.PROTOCOL_3);
        assertThat(m.readCString()).isEqualTo("user");
        assertThat(m.readCString()).isEqualTo("app");
        assertThat(m.readCString()).isEqualTo("database");
        assertThat(m.readCString()).isEqualTo("shop");
    }

    @Test
    void readsAnSslRequest() throws Exception {
        PgMessageReader r = new PgMessageReader(new ByteArrayInputStream(hex("00000008 04d2162f")), 65536);
        assertThat(r.startup().readInt()).isEqualTo(PgStartup.SSL_REQUEST);
    }

    @Test
    void readsPgjdbcsParseBindExecuteSync() throws Exception {
        // pgjdbc: Parse "" "SELECT $1" [int4], Bind "" "" formats [1] values [int4 7] result formats [],
        // Execute "" 0, Sync.
        byte[] stream = hex("50 00000015 00 53454c454354202431 00 0001 00000017"
                + "42 00000016 00 00 0001 0001 0001 00000004 00000007 0000"
                + "45 00000009 00 00000000"
                + "53 00000004");
        PgMessageReader r = new PgMessageReader(new ByteArrayInputStream(stream), 65536);
        PgMessage parse = r.next();
        assertThat((char) parse.type()).isEqualTo('P');
        assertThat(parse.readCString()).isEmpty();
        assertThat(parse.readCString()).isEqualTo("SELECT $1");
        assertThat(parse.readCount(4)).isEqualTo(1);
        assertThat(parse.readInt()).isEqualTo(PgType.INT4.oid());
        PgMessage bind = r.next();
        assertThat((char) bind.type()).isEqualTo('B');
        assertThat(bind.remaining()).isEqualTo(18);
        assertThat((char) r.next().type()).isEqualTo('E');
        assertThat((char) r.next().type()).isEqualTo('S');
    }

    @Test
    void refusesAnUnknownTypeAndALengthPastTheLimit() {
        assertThatThrownBy(() -> new PgMessageReader(new ByteArrayInputStream(hex("7e 00000004")), 65536).next())
                .isInstanceOf(PgProtocolException.class)
                .hasMessageContaining("invalid frontend message type");
        assertThatThrownBy(() -> new PgMessageReader(new ByteArrayInputStream(hex("51 40000000")), 65536).next())
                .isInstanceOf(PgProtocolException.class)
                .satisfies(e -> assertThat(((PgProtocolException) e).sqlState()).isEqualTo("54000"));
        assertThatThrownBy(() -> new PgMessageReader(new ByteArrayInputStream(hex("51 00000002")), 65536).next())
                .isInstanceOf(PgProtocolException.class)
                .hasMessageContaining("invalid message length");
    }

    @Test
    void writesWhatPostgresqlSendsForSelectOne() throws Exception {
        // PostgreSQL 15 answering "SELECT 1" (simple query), as captured: RowDescription ?column? int4,
        // DataRow "1", CommandComplete "SELECT 1", ReadyForQuery I.
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PgMessageWriter w = new PgMessageWriter(captured);
        w.rowDescription(List.of(new PgField("?column?", PgType.INT4, -1, 0)));
        w.dataRow(new byte[][] {PgText.encode(1)});
        w.commandComplete("SELECT 1");
        w.readyForQuery('I');
        w.flush();
        assertThat(HexFormat.of().formatHex(captured.toByteArray()))
                .isEqualTo(("54 00000021 0001 3f636f6c756d6e3f00 00000000 0000 00000017 0004 ffffffff 0000"
                                + "44 0000000b 0001 00000001 31"
                                + "43 0000000d 53454c4543542031 00"
                                + "5a 00000005 49")
                        .replace(" ", ""));
    }

    @Test
    void formatsValuesAsPostgresqlPrintsThem() {
        assertThat(PgText.format(true)).isEqualTo("t");
        assertThat(PgText.format(new BigDecimal("12.50"))).isEqualTo("12.50");
        assertThat(PgText.format(0.1)).isEqualTo("0.1");
        assertThat(PgText.format(1e15)).isEqualTo("1e+15");
        assertThat(PgText.format(123456789012345.0)).isEqualTo("123456789012345");
        assertThat(PgText.format(1.5e-5)).isEqualTo("1.5e-05");
        assertThat(PgText.format(1e6f)).isEqualTo("1e+06");
        assertThat(PgText.format(new byte[] {0, 1, (byte) 0xff})).isEqualTo("\\x0001ff");
        assertThat(PgText.format(LocalDateTime.of(2024, 3, 1, 12, 30, 45, 120_000_000)))
                .isEqualTo("2024-03-01 12:30:45.12");
        assertThat(PgText.format(OffsetDateTime.of(2024, 3, 1, 12, 0, 0, 0, ZoneOffset.ofHours(2))))
                .isEqualTo("2024-03-01 10:00:00+00");
        assertThat(PgText.format(LocalDate.of(2024, 2, 29))).isEqualTo("2024-02-29");
    }

    @Test
    void timestamptzInTheSessionsTimeZoneInfinityAndBc() throws Exception {
        OffsetDateTime noon = OffsetDateTime.of(2024, 3, 1, 12, 0, 0, 0, ZoneOffset.UTC);
        assertThat(PgText.format(noon, PgTimeZone.zoneOf("Asia/Kolkata"))).isEqualTo("2024-03-01 17:30:00+05:30");
        assertThat(PgText.format(noon, PgTimeZone.zoneOf("america/new_york"))).isEqualTo("2024-03-01 07:00:00-05");
        assertThat(PgText.format(noon, PgTimeZone.zoneOf("GMT+2"))).isEqualTo("2024-03-01 10:00:00-02"); // POSIX
        assertThat(PgText.format(LocalDateTime.MAX)).isEqualTo("infinity");
        assertThat(PgText.format(OffsetDateTime.MIN)).isEqualTo("-infinity");
        assertThat(PgText.format(LocalDate.of(-43, 3, 15))).isEqualTo("0044-03-15 BC");
        assertThat(PgBinary.decode(PgType.TIMESTAMP, PgBinary.encode(PgType.TIMESTAMP, LocalDateTime.MAX)))
                .isEqualTo(LocalDateTime.MAX);
        assertThat(HexFormat.of().formatHex(PgBinary.encode(PgType.DATE, LocalDate.MIN)))
                .isEqualTo("80000000");
        assertThat(PgTimeZone.settingIn("SET TIME ZONE 'Europe/Paris'")).isEqualTo("Europe/Paris");
        assertThat(PgTimeZone.settingIn("set timezone = 'UTC';")).isEqualTo("UTC");
        assertThat(PgTimeZone.settingIn("SET TIME ZONE -7")).isEqualTo("<-07>+07");
        assertThat(PgTimeZone.zoneOf("<-07>+07")).isEqualTo(ZoneOffset.ofHours(-7));
        assertThat(PgTimeZone.settingIn("RESET ALL")).isEmpty();
        assertThat(PgTimeZone.settingIn("SET LOCAL TIME ZONE 'UTC'")).isNull();
        assertThat(PgTimeZone.settingIn("SET search_path TO x")).isNull();
        assertThatThrownBy(() -> PgTimeZone.settingIn("SET TIME ZONE 'Nowhere/Atlantis'"))
                .hasMessageContaining("TimeZone");
    }

    @Test
    void arraysInBinaryAreArraySend() throws Exception {
        // SELECT array_send('{{1,2},{3,NULL}}'::int4[]): 2 dimensions, has nulls, int4, 2x2 from 1, elements.
        byte[] grid = PgBinary.encode(
                PgType.INT4_ARRAY, new org.raidb.driver.protocol.TypedText("_int4", "{{1,2},{3,NULL}}"));
        assertThat(HexFormat.of().formatHex(grid))
                .isEqualTo("00000002" + "00000001" + "00000017" + "00000002" + "00000001" + "00000002" + "00000001"
                        + "00000004" + "00000001" + "00000004" + "00000002" + "00000004" + "00000003" + "ffffffff");
        org.raidb.driver.protocol.SqlArray back =
                (org.raidb.driver.protocol.SqlArray) PgBinary.decode(PgType.INT4_ARRAY, grid);
        assertThat(back.elements()).hasSize(2);
        assertThat(((org.raidb.driver.protocol.SqlArray) back.elements().get(1)).elements())
                .containsExactly(3, null);
        // SELECT array_send('{}'::text[]): no dimension at all.
        assertThat(HexFormat.of()
                        .formatHex(PgBinary.encode(
                                PgType.TEXT_ARRAY, new org.raidb.driver.protocol.TypedText("_text", "{}"))))
                .isEqualTo("00000000" + "00000000" + "00000019");
        org.raidb.driver.protocol.SqlArray words =
                PgArrayLiteral.parse("{\"a b\",\"x\\\\\\\"y\",NULL,\"NULL\"}", PgType.TEXT);
        assertThat(words.elements()).containsExactly("a b", "x\\\"y", null, "NULL");
        assertThat(PgArrayLiteral.parse("[0:1]={2024-03-01 10:00:00+05:30,infinity}", PgType.TIMESTAMPTZ)
                        .elements()
                        .get(0))
                .isEqualTo(OffsetDateTime.of(2024, 3, 1, 10, 0, 0, 0, ZoneOffset.ofHoursMinutes(5, 30)));
    }

    @Test
    void numericBinaryIsPostgresqlsNumericSend() throws Exception {
        // SELECT numeric_send(12345.678): ndigits 3, weight 1, sign +, dscale 3, digits 1 2345 6780.
        assertThat(HexFormat.of().formatHex(PgBinary.numeric(new BigDecimal("12345.678"))))
                .isEqualTo("0003000100000003" + "0001" + "0929" + "1a7c");
        // SELECT numeric_send(-0.0001): ndigits 1, weight -1, sign -, dscale 4, digit 1.
        assertThat(HexFormat.of().formatHex(PgBinary.numeric(new BigDecimal("-0.0001"))))
                .isEqualTo("0001ffff40000004" + "0001");
        for (String v : List.of("0", "12345.678", "-0.0001", "100000000", "3.14159265358979323846", "0.00")) {
            BigDecimal d = new BigDecimal(v);
            assertThat(PgBinary.decode(PgType.NUMERIC, PgBinary.numeric(d))).isEqualTo(d);
        }
    }

    @Test
    void timestampsAndDatesCountFrom2000() throws Exception {
        // SELECT timestamp_send('2000-01-02 00:00:01'): 86401 seconds in microseconds.
        assertThat(HexFormat.of().formatHex(PgBinary.encode(PgType.TIMESTAMP, LocalDateTime.of(2000, 1, 2, 0, 0, 1))))
                .isEqualTo("000000141de6a240");
        assertThat(PgBinary.decode(PgType.DATE, hex("ffffffff"))).isEqualTo(LocalDate.of(1999, 12, 31));
        assertThat(PgBinary.decode(PgType.INT8, hex("0000000000000007"))).isEqualTo(7L);
        assertThatThrownBy(() -> PgBinary.decode(PgType.INT4, hex("0007")))
                .hasMessageContaining("invalid binary representation");
    }
}
