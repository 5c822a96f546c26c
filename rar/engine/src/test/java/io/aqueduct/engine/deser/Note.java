package io.aqueduct.engine.deser;

import java.io.Serializable;

/** A class of the object type's own package: allowed by default. */
public record Note(String text) implements Serializable {
}
