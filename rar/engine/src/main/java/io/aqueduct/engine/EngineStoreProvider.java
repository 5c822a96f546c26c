package io.aqueduct.engine;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.AqStore;
import io.aqueduct.api.AqStoreProvider;
import io.aqueduct.api.AqStores;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The engine as the {@link AqStoreProvider} that {@link AqStores#open(Map)} finds: each property
 * maps to the {@link AqueductEngine.Builder} option of the same meaning. Registered in
 * {@code META-INF/services/io.aqueduct.api.AqStoreProvider}.
 */
public final class EngineStoreProvider implements AqStoreProvider {

    @Override
    public AqStore open(Map<String, String> properties) {
        // checked again: a provider may be called directly, not only through AqStores
        Map<String, String> p = AqStores.checkProperties(properties);
        AqueductEngine.Builder b = AqueductEngine.builder();
        String directory = p.get(AqStores.STORE_DIRECTORY);
        if (directory != null) {
            Path path;
            try {
                path = Path.of(directory);
            } catch (InvalidPathException e) {
                throw new AqException(AqError.INVALID_VALUE, AqStores.STORE_DIRECTORY + " is not a directory path: "
                        + e.getMessage(), e);
            }
            b.derbyDirectory(path);
        }
        option(AqStores.STORE_MEMORY, p, b::derbyInMemory);
        option(AqStores.USER, p, b::user);
        option(AqStores.ADMINISTRATORS, p, b::administrators);
        option(AqStores.SCHEMA, p, b::defaultSchema);
        option(AqStores.MAX_PAYLOAD_BYTES, p, v -> b.maxPayloadBytes(Long.parseLong(v)));
        option(AqStores.MAX_BUFFERED_BYTES, p, v -> b.maxBufferedBytes(Long.parseLong(v)));
        option(AqStores.BUFFERED_ENQUEUE_WAIT_MILLIS, p, v -> b.bufferedEnqueueWaitMillis(Long.parseLong(v)));
        option(AqStores.DESERIALIZATION_FILTER, p, b::deserializationFilter);
        option(AqStores.TIME_MANAGER, p, v -> b.timeManager(Boolean.parseBoolean(v)));
        String mailHost = p.get(AqStores.MAIL_HOST);
        if (mailHost != null) {
            String port = p.get(AqStores.MAIL_PORT);
            option(AqStores.MAIL_FROM, p, io.aqueduct.engine.notification.Registrations::checkSender);
            option(AqStores.MAIL_HOST, p, host -> b.mail(host, port == null ? 25 : Integer.parseInt(port),
                    p.get(AqStores.MAIL_FROM), p.get(AqStores.MAIL_USER), p.get(AqStores.MAIL_PASSWORD),
                    Boolean.parseBoolean(p.get(AqStores.MAIL_STARTTLS))));
        }
        String url = p.get(AqStores.STORE_URL);
        if (url != null) {
            String user = p.get(AqStores.STORE_USER);
            // connects once to learn the dialect: an unreachable server fails here, naming the URL (never the password)
            b.jdbc(url, user == null || user.isEmpty() ? null : user, p.get(AqStores.STORE_PASSWORD));
        }
        return b.start();
    }

    /** Applies one option; a value the builder refuses is reported under the property's name. */
    private static void option(String key, Map<String, String> p, java.util.function.Consumer<String> setter) {
        String value = p.get(key);
        if (value == null) {
            return;
        }
        try {
            setter.accept(value);
        } catch (AqException e) {
            String reason = e.getMessage().replaceFirst("^AQ-\\d{5}: ", "");
            throw new AqException(e.errorCode(), "The store property " + key + " is refused: " + reason, e);
        }
    }
}
