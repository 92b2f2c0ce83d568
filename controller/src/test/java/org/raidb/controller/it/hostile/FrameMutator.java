package org.raidb.controller.it.hostile;

import java.util.Arrays;
import java.util.Random;

/**
 * Mutates a valid frame the ways a fuzzer does: bit flips, truncation, int fields set to extremes (they
 * are mostly lengths and counts in this protocol), random value tags and frame types, inserted junk.
 * One to three mutations per frame, from a seeded Random so that a failure can be replayed.
 */
final class FrameMutator {
    private static final int[] EXTREMES = {
        0,
        1,
        -1,
        -2,
        Integer.MAX_VALUE,
        Integer.MIN_VALUE,
        0x7fff,
        0xffff,
        0x10000,
        1 << 24,
        1 << 30,
        1_400_000_000,
        64 * 1024 * 1024,
        64 * 1024,
        64 * 1024 + 1
    };

    private final Random random;

    FrameMutator(Random random) {
        this.random = random;
    }

    byte[] mutate(byte[] valid) {
        byte[] f = valid.clone();
        int mutations = 1 + random.nextInt(3);
        for (int i = 0; i < mutations; i++) {
            f = mutateOnce(f);
        }
        return f;
    }

    private byte[] mutateOnce(byte[] f) {
        switch (random.nextInt(8)) {
            case 0, 1 -> { // bit flips anywhere after the length
                for (int n = 1 + random.nextInt(4); n > 0 && f.length > 4; n--) {
                    int at = 4 + random.nextInt(f.length - 4);
                    f[at] ^= (byte) (1 << random.nextInt(8));
                }
                return f;
            }
            case 2 -> { // truncation, with the length fixed to match so that the frame is whole but short
                int keep = 5 + random.nextInt(Math.max(1, f.length - 5));
                byte[] t = Arrays.copyOf(f, Math.min(keep, f.length));
                writeInt(t, 0, t.length - 4);
                return t;
            }
            case 3, 4 -> { // an int field inside the payload set to an extreme
                if (f.length >= 9) {
                    writeInt(f, 5 + random.nextInt(f.length - 8), EXTREMES[random.nextInt(EXTREMES.length)]);
                }
                return f;
            }
            case 5 -> { // the frame's own length set to an extreme
                writeInt(f, 0, EXTREMES[random.nextInt(EXTREMES.length)]);
                return f;
            }
            case 6 -> { // a random value tag or frame type
                int at = random.nextBoolean() || f.length < 6 ? 4 : 5 + random.nextInt(f.length - 5);
                f[at] = (byte) (random.nextBoolean() ? random.nextInt(20) : random.nextInt(256));
                return f;
            }
            default -> { // junk inserted, the length fixed to cover it
                byte[] junk = new byte[1 + random.nextInt(16)];
                random.nextBytes(junk);
                int at = 5 + random.nextInt(Math.max(1, f.length - 4));
                byte[] g = new byte[f.length + junk.length];
                System.arraycopy(f, 0, g, 0, Math.min(at, f.length));
                System.arraycopy(junk, 0, g, Math.min(at, f.length), junk.length);
                if (at < f.length) {
                    System.arraycopy(f, at, g, at + junk.length, f.length - at);
                }
                writeInt(g, 0, g.length - 4);
                return g;
            }
        }
    }

    static int announcedLength(byte[] f) {
        return ((f[0] & 0xff) << 24) | ((f[1] & 0xff) << 16) | ((f[2] & 0xff) << 8) | (f[3] & 0xff);
    }

    private static void writeInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }
}
