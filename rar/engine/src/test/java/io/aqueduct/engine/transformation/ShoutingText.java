package io.aqueduct.engine.transformation;

import io.aqueduct.api.Transformer;

/** TEXT to TEXT: the text in upper case, marked as transformed. */
public class ShoutingText implements Transformer {
    @Override
    public Object transform(Object payload) {
        return ((String) payload).toUpperCase(java.util.Locale.ROOT) + "!";
    }
}
