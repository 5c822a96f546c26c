package io.aqueduct.engine.transformation;

/** A class that does not implement Transformer. */
public class NotATransformer {
    public Object transform(Object payload) {
        return payload;
    }
}
