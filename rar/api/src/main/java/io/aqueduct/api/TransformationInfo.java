package io.aqueduct.api;

import java.util.Map;

/**
 * A named transformation (DBMS_TRANSFORM): from a source type to a target type, by a
 * {@link Transformer} class ({@code functionClass}) or by one expression per target attribute
 * ({@code attributes}, in order; empty for a function transformation). Types are {@code RAW},
 * {@code TEXT}, {@code JSON}, {@code XML} or a Java class name (OBJECT).
 */
public record TransformationInfo(String schema, String name, String fromType, String toType, String functionClass,
        Map<String, String> attributes) {

    public String qualifiedName() {
        return schema + "." + name;
    }
}
