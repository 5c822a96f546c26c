package io.aqueduct.api;

/** What a queue table's messages carry. */
public enum PayloadType {
    /** Bytes ({@code byte[]}). */
    RAW,
    /** A {@code String}. */
    TEXT,
    /** A JSON document: a {@code String} holding well-formed JSON, or a {@code jakarta.json.JsonValue}. */
    JSON,
    /** An XML document: a {@code String} holding well-formed XML, or an {@code org.w3c.dom.Document}. */
    XML,
    /** A serializable Java object of the queue table's object type (a class name). */
    OBJECT
}
