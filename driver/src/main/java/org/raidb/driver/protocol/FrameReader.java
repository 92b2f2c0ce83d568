package org.raidb.driver.protocol;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads length-prefixed frames from a stream. A frame whose announced length is above the limit is
 * refused before any of its payload is read, and the buffer grows only as payload bytes actually
 * arrive: a peer that announces a large frame and sends nothing costs us nothing, so a hostile or
 * broken peer cannot make us allocate by lying about a length.
 */
public final class FrameReader {
    private static final int INITIAL_BYTES = 8192;
    private final InputStream in;
    private int maxFrameBytes;
    private byte[] buf = new byte[INITIAL_BYTES];

    public FrameReader(InputStream in, int maxFrameBytes) {
        this.in = in;
        this.maxFrameBytes = maxFrameBytes;
    }

    /**
     * Changes the limit for the frames read from now on: the controller accepts small frames until a
     * client has logged in, and frames up to its configured maximum after.
     */
    public void maxFrameBytes(int bytes) {
        this.maxFrameBytes = bytes;
    }

    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    /** Reads the next frame; the returned reader is valid until the next call. Throws EOFException on a clean end of stream. */
    public PayloadReader next() throws IOException {
        int b0 = in.read();
        if (b0 < 0) {
            throw new EOFException("connection closed by peer");
        }
        readFully(buf, 0, 3);
        int length = (b0 << 24) | ((buf[0] & 0xff) << 16) | ((buf[1] & 0xff) << 8) | (buf[2] & 0xff);
        if (length < 1) {
            throw new ProtocolException("invalid frame length " + length);
        }
        if (length > maxFrameBytes) {
            throw new ProtocolException(
                    "frame of " + length + " bytes exceeds the maximum of " + maxFrameBytes + " bytes");
        }
        if (buf.length > 1 << 20 && length < INITIAL_BYTES) {
            buf = new byte[INITIAL_BYTES]; // release the memory of an earlier large frame
        }
        int read = 0;
        while (read < length) {
            if (read == buf.length) {
                // Doubling keeps the copies linear in the frame size and the buffer at most twice what arrived.
                byte[] larger = new byte[(int) Math.min(length, 2L * buf.length)];
                System.arraycopy(buf, 0, larger, 0, read);
                buf = larger;
            }
            int n = in.read(buf, read, Math.min(length, buf.length) - read);
            if (n < 0) {
                throw new EOFException("connection closed in the middle of a frame");
            }
            read += n;
        }
        return new PayloadReader(buf[0], buf, 1, length);
    }

    private void readFully(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            int n = in.read(b, off, len);
            if (n < 0) {
                throw new EOFException("connection closed in the middle of a frame");
            }
            off += n;
            len -= n;
        }
    }
}
