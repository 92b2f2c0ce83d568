package org.raidb.driver.protocol;

/**
 * A frame being built grew past the limit its receiver accepts ({@link PayloadWriter#maxFrameBytes}).
 * Unchecked, like the writer's other methods; nothing of the frame has been sent when it is thrown.
 */
public final class FrameTooLargeException extends RuntimeException {
    private final int maxFrameBytes;

    public FrameTooLargeException(int maxFrameBytes) {
        super("the frame exceeds the receiver's maximum of " + maxFrameBytes + " bytes");
        this.maxFrameBytes = maxFrameBytes;
    }

    public int maxFrameBytes() {
        return maxFrameBytes;
    }
}
