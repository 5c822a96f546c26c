package io.aqueduct.bench;

import java.nio.ByteBuffer;
import java.util.Random;

/** 1 KiB payloads carrying a unique counter in their first 8 bytes (big-endian). */
public final class Payloads {
    public static final int SIZE = 1024;
    private static final byte[] TEMPLATE = new byte[SIZE];

    static {
        new Random(42).nextBytes(TEMPLATE);
    }

    private Payloads() {
    }

    /** A fresh array each call: a queue may keep the reference it is given. */
    public static byte[] of(long id) {
        byte[] b = TEMPLATE.clone();
        ByteBuffer.wrap(b).putLong(0, id);
        return b;
    }

    public static long id(byte[] payload) {
        if (payload == null || payload.length != SIZE) {
            throw new IllegalStateException("payload of " + (payload == null ? "null" : payload.length + " bytes")
                    + ", expected " + SIZE);
        }
        return ByteBuffer.wrap(payload).getLong(0);
    }
}
