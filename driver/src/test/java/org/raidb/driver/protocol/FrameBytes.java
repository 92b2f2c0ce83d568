package org.raidb.driver.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Test helper for the frame codecs: a frame's bytes as they go on the wire, a reader over them
 * positioned after the type byte (as the peer's dispatcher hands it to the codec), and the round trip
 * every codec test makes.
 */
final class FrameBytes {
    private FrameBytes() {}

    /** Builds one frame; the codecs that stream rowsets may throw SQLException. */
    @FunctionalInterface
    interface Writing {
        void write(PayloadWriter w) throws Exception;
    }

    /** A codec's read. */
    @FunctionalInterface
    interface Reading<T> {
        T read(PayloadReader r) throws Exception;
    }

    /** The whole frame (length, type, payload) that {@code writing} builds. */
    static byte[] of(Writing writing) {
        PayloadWriter w = new PayloadWriter();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            writing.write(w);
            w.send(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        return out.toByteArray();
    }

    /** Reads the frame back as the receiver does. */
    static PayloadReader read(byte[] frame) {
        try {
            return new FrameReader(new ByteArrayInputStream(frame), 1 << 24).next();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Checks that the codec writes exactly the bytes of the layout docs/protocol.md gives, written
     * field by field in {@code documented}, and that it reads all of them back; returns what it read.
     */
    static <T> T roundTrip(Writing codec, Writing documented, Reading<T> read) throws Exception {
        byte[] bytes = of(codec);
        byte[] expected = of(documented);
        assertThat(bytes).as("bytes of the codec against the documented layout").containsExactly(expected);
        PayloadReader r = read(bytes);
        assertThat(r.type()).isEqualTo(expected[4]);
        T back = read.read(r);
        assertThat(r.hasRemaining())
                .as("bytes left after the codec read its frame")
                .isFalse();
        return back;
    }
}
