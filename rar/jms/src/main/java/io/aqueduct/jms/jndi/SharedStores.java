package io.aqueduct.jms.jndi;

import io.aqueduct.api.AqStore;
import io.aqueduct.api.AqStores;

import java.util.HashMap;
import java.util.Map;

/**
 * The stores JNDI contexts opened in this JVM, one per distinct store configuration: contexts with
 * the same {@code aqueduct.} store properties share one store (an embedded Derby database can be
 * opened once per JVM anyway), and the last context to close it closes it.
 */
final class SharedStores {
    private static final Map<Map<String, String>, Shared> OPEN = new HashMap<>();

    private SharedStores() {
    }

    private static final class Shared {
        final AqStore store;
        int users;

        Shared(AqStore store) {
            this.store = store;
        }
    }

    /** A context's hold on a store; {@link #release()} once, when the context closes. */
    static final class Lease {
        private final Map<String, String> key;
        private final Shared shared;
        private boolean released;

        private Lease(Map<String, String> key, Shared shared) {
            this.key = key;
            this.shared = shared;
        }

        AqStore store() {
            return shared.store;
        }

        /** Gives the store back; the last lease closes it. Idempotent. */
        void release() {
            synchronized (OPEN) {
                if (released) {
                    return;
                }
                released = true;
                if (--shared.users == 0) {
                    OPEN.remove(key);
                    // closed under the lock: a context opening the same Derby directory meanwhile
                    // would be refused while this engine still holds it
                    shared.store.close();
                }
            }
        }
    }

    /**
     * The store of these (checked) properties, opened now unless a context already holds it.
     * Opening happens under the lock, so two contexts of one configuration never open two stores.
     */
    static Lease acquire(Map<String, String> storeProperties) {
        synchronized (OPEN) {
            Shared shared = OPEN.get(storeProperties);
            if (shared == null) {
                shared = new Shared(AqStores.open(storeProperties));
                OPEN.put(storeProperties, shared);
            }
            shared.users++;
            return new Lease(storeProperties, shared);
        }
    }

    /** How many distinct stores contexts hold now (for tests and diagnostics). */
    static int openStores() {
        synchronized (OPEN) {
            return OPEN.size();
        }
    }
}
