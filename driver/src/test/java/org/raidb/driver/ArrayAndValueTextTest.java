package org.raidb.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.raidb.driver.protocol.SqlArray;

/** The server's text forms the driver reads and writes itself: arrays, intervals, floats. */
class ArrayAndValueTextTest {

    @Test
    void arrayTextReadsQuotesNullsDimensionsAndBounds() throws SQLException {
        assertThat(ArrayLiteral.parse("{\"a b\",NULL,\"q\\\"uote\",c,\"NULL\"}", "text")
                        .elements())
                .containsExactly("a b", null, "q\"uote", "c", "NULL");
        SqlArray grid = ArrayLiteral.parse("{{1,2},{3,4}}", "int4");
        assertThat(Arrays.deepToString(grid.toNestedArray())).isEqualTo("[[1, 2], [3, 4]]");
        assertThat(ArrayLiteral.parse("[0:1]={7,8}", "int8").elements()).containsExactly(7L, 8L);
        assertThat(ArrayLiteral.parse("{}", "int4").elements()).isEmpty();
        assertThatThrownBy(() -> ArrayLiteral.parse("{1,2", "int4")).isInstanceOf(SQLException.class);
    }

    @Test
    void arrayTextIsWrittenAsPgjdbcWritesIt() {
        assertThat(ArrayLiteral.format(new SqlArray("varchar", Arrays.asList("a", "b,c", null))))
                .isEqualTo("{\"a\",\"b,c\",NULL}");
        assertThat(ArrayLiteral.format(new SqlArray("int4", List.of(new SqlArray("int4", List.of(1, 2))))))
                .isEqualTo("{{1,2}}");
    }

    @Test
    void intervalsReadInEveryOutputStyle() throws SQLException {
        String pgjdbcText = "1 years 2 mons 3 days 4 hours 5 mins 6.5 secs";
        assertThat(RaidbInterval.parse("1 year 2 mons 3 days 04:05:06.5").getValue())
                .isEqualTo(pgjdbcText);
        assertThat(RaidbInterval.parse("P1Y2M3DT4H5M6.5S").getValue()).isEqualTo(pgjdbcText);
        assertThat(RaidbInterval.parse("@ 1 year 2 mons ago")).isEqualTo(new RaidbInterval(-1, -2, 0, 0, 0, 0));
        RaidbInterval negative = RaidbInterval.parse("-1 days -04:05:06");
        assertThat(negative.getDays()).isEqualTo(-1);
        assertThat(negative.getHours()).isEqualTo(-4);
        assertThat(negative.getSeconds()).isEqualTo(-6.0);
        assertThat(RaidbInterval.parse("00:00:00").toString())
                .isEqualTo("0 years 0 mons 0 days 0 hours 0 mins 0.0 secs");
    }

    @Test
    void floatsReadAsTheServerPrintsThem() {
        assertThat(ServerText.floating(7.0, "7.0", 15)).isEqualTo("7");
        assertThat(ServerText.floating(1e20, Double.toString(1e20), 15)).isEqualTo("1e+20");
        assertThat(ServerText.floating(1e15, Double.toString(1e15), 15)).isEqualTo("1e+15");
        assertThat(ServerText.floating(123456789012345.0, Double.toString(123456789012345.0), 15))
                .isEqualTo("123456789012345");
        assertThat(ServerText.floating(1.5e-5, Double.toString(1.5e-5), 15)).isEqualTo("1.5e-05");
        assertThat(ServerText.floating(0.0001, Double.toString(0.0001), 15)).isEqualTo("0.0001");
        assertThat(ServerText.floating(-0.0, "-0.0", 15)).isEqualTo("-0");
        assertThat(ServerText.floating(1234567f, Float.toString(1234567f), 6)).isEqualTo("1.234567e+06");
        assertThat(ServerText.floating(Double.NEGATIVE_INFINITY, "", 15)).isEqualTo("-Infinity");
    }
}
