package io.aqueduct.engine.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A unit of work that fails with an Error (out of memory) does not leave the connection's unit open for good. */
class StoreConnectionTest {

    @Test
    void a_unit_of_work_ended_by_an_error_leaves_the_connection_usable() {
        Store store = new Store(DerbyDialect.inMemory("storeConnectionTest"));
        try (StoreConnection c = store.open()) {
            assertThatThrownBy(() -> c.work(em -> {
                throw new OutOfMemoryError("Java heap space");
            }, true)).isInstanceOf(OutOfMemoryError.class);

            Object count = c.work(em -> em.createNativeQuery("SELECT COUNT(*) FROM AQ_QUEUE").getSingleResult(), true);
            assertThat(count).isNotNull();
        } finally {
            store.close();
        }
    }
}
