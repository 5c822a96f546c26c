package io.aqueduct.api;

/**
 * A transformation function (AQ's PL/SQL transformation function, e.g. the reference's
 * {@code CONVERT_TO_ORDER_XML}): an application class with a public no-argument constructor,
 * named in {@link QueueAdmin#createTransformation(String, String, String, String)} and loaded by
 * name with the thread's context class loader (else the engine's). A new instance transforms each
 * message.
 */
@FunctionalInterface
public interface Transformer {

    /**
     * Returns the payload of the target type for a payload of the source type. Anything it throws
     * fails the enqueue / dequeue with {@link AqError#TRANSFORMATION_FAILED} (25229), nothing
     * written.
     */
    Object transform(Object payload) throws Exception;
}
