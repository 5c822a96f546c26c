package io.aqueduct.engine.transformation;

import io.aqueduct.api.Transformer;

/** Claims to give XML and gives something else. */
public class WrongResultTransformer implements Transformer {
    @Override
    public Object transform(Object payload) {
        return "this is not <xml";
    }
}
