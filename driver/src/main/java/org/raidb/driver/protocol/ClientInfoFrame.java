package org.raidb.driver.protocol;

/**
 * The CLIENT_INFO frame, Connection.setClientInfo changed a property: {@code string name | string value}.
 * Answered by OK.
 */
public record ClientInfoFrame(String name, String value) {

    public void write(PayloadWriter w) {
        w.begin(Protocol.CLIENT_INFO).writeString(name).writeString(value);
    }

    public static ClientInfoFrame read(PayloadReader r) throws ProtocolException {
        String name = r.readString();
        return new ClientInfoFrame(name, r.readString());
    }
}
