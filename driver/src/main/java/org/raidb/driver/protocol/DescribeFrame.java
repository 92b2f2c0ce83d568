package org.raidb.driver.protocol;

/**
 * The DESCRIBE frame, asking what a prepared statement's parameters and result columns are without
 * running it: {@code string sql}. Answered by DESCRIPTION ({@link StatementDescription}).
 */
public record DescribeFrame(String sql) {

    public void write(PayloadWriter w) {
        w.begin(Protocol.DESCRIBE).writeString(sql);
    }

    public static DescribeFrame read(PayloadReader r) throws ProtocolException {
        return new DescribeFrame(r.readString());
    }
}
