package org.raidb.driver.protocol;

import java.io.IOException;

/** A peer broke the wire protocol: bad magic, unknown frame type, oversized or truncated frame. */
public class ProtocolException extends IOException {
    public ProtocolException(String message) {
        super(message);
    }
}
