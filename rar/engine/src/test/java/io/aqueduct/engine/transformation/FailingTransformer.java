package io.aqueduct.engine.transformation;

import io.aqueduct.api.Transformer;

/** A transformation function that fails on every message. */
public class FailingTransformer implements Transformer {
    @Override
    public Object transform(Object payload) {
        throw new IllegalStateException("customer lookup failed");
    }
}
