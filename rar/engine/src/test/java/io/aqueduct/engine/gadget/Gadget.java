package io.aqueduct.engine.gadget;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.concurrent.atomic.AtomicInteger;

/** Stands for a deserialization gadget: its readObject runs code. It counts how often it ran. */
public class Gadget implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final AtomicInteger RAN = new AtomicInteger();

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        RAN.incrementAndGet();
    }
}
