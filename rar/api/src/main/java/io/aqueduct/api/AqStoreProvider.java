package io.aqueduct.api;

import java.util.Map;

/**
 * Opens stores from properties: the service {@link AqStores} finds with {@link java.util.ServiceLoader}
 * (the engine, {@code aqueduct-engine}, provides it in
 * {@code META-INF/services/io.aqueduct.api.AqStoreProvider}). Implementations need a public
 * no-argument constructor.
 */
public interface AqStoreProvider {

    /**
     * Opens a store.
     *
     * @param properties only {@link AqStores#PROPERTIES known} {@code aqueduct.} keys, already
     *                   checked by {@link AqStores} (no blank values where one is required, one
     *                   store kind at most, numbers and booleans well formed)
     * @throws AqException when the store cannot be opened or a value is refused
     */
    AqStore open(Map<String, String> properties);
}
