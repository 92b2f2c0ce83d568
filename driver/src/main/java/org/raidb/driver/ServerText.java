package org.raidb.driver;

import java.math.BigDecimal;
import org.raidb.driver.protocol.ColumnInfo;

/**
 * The text a PostgreSQL server sends for a value, which is what pgjdbc's getString returns: the wire
 * carries booleans and floats as binary values, so their text is rebuilt here the way the server
 * prints them. Everything else reads as {@link ValueConversions#toText}.
 */
final class ServerText {
    private ServerText() {}

    static String of(Object v, ColumnInfo column) {
        if (v instanceof Boolean b) {
            return "bit".equals(column.typeName()) ? (b ? "1" : "0") : (b ? "t" : "f");
        }
        if (v instanceof Double d) {
            return floating(d, Double.toString(d), 15);
        }
        if (v instanceof Float f) {
            return floating(f, Float.toString(f), 6);
        }
        return ValueConversions.toText(v);
    }

    /**
     * The shortest digits that read back as the same value (what Java's toString gives), laid out as
     * PostgreSQL lays them out: plain from 1e-4 to below 1e15 (1e6 for float4), else {@code 1.5e+20}.
     */
    static String floating(double d, String javaText, int plainBelowExponent) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : "-Infinity";
        }
        if (d == 0) {
            return 1 / d < 0 ? "-0" : "0";
        }
        BigDecimal b = new BigDecimal(javaText).stripTrailingZeros();
        int exponent = b.precision() - b.scale() - 1;
        if (exponent >= -4 && exponent < plainBelowExponent) {
            return b.toPlainString();
        }
        String digits = b.unscaledValue().abs().toString();
        StringBuilder sb = new StringBuilder(digits.length() + 8);
        if (b.signum() < 0) {
            sb.append('-');
        }
        sb.append(digits.charAt(0));
        if (digits.length() > 1) {
            sb.append('.').append(digits, 1, digits.length());
        }
        sb.append('e').append(exponent < 0 ? '-' : '+');
        int abs = Math.abs(exponent);
        if (abs < 10) {
            sb.append('0');
        }
        return sb.append(abs).toString();
    }
}
