package org.raidb.driver.protocol;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads length-prefixed frames from a stream. A frame whose announced length is above the limit is
 * refused before any of its payload is read, so that a hostile or broken peer cannot make us allocate.
 */
public final class FrameReader {
  private final InputStream in;
  private final int maxFrameBytes;
  private byte[] buf = new byte[8192];

  public FrameReader(InputStream in, int maxFrameBytes) {
    this.in = in;
    this.maxFrameBytes = maxFrameBytes;
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
      throw new ProtocolException("frame of " + length + " bytes exceeds the maximum of " + maxFrameBytes + " bytes");
    }
    if (buf.length < length) {
      buf = new byte[Math.max(length, buf.length * 2)];
    } else if (buf.length > 1 << 20 && length < 8192) {
      buf = new byte[8192]; // release the memory of an earlier large frame
    }
    readFully(buf, 0, length);
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
