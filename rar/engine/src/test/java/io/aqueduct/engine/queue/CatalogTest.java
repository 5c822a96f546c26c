package io.aqueduct.engine.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.MessageGrouping;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueType;
import io.aqueduct.api.SortOrder;
import org.junit.jupiter.api.Test;

class CatalogTest {
    private static final QueueTableMeta TABLE = new QueueTableMeta(1, "APP", "QT", PayloadType.RAW, null,
            SortOrder.ENQ_TIME, false, MessageGrouping.NONE, null);

    private static QueueMeta queue(long id) {
        return new QueueMeta(id, "APP", "ORDERS_Q", TABLE, QueueType.NORMAL, 5, 0, 0, true, true, null);
    }

    @Test
    void a_refresh_that_meets_a_queue_dropped_and_created_again_under_its_name_keeps_the_new_one() {
        Catalog catalog = new Catalog();
        QueueRuntime dropped = catalog.putQueue(queue(10));
        // a refresh reads the store's queues first (the new one, under the old name), then removes what is gone
        QueueRuntime created = catalog.putQueue(queue(11));
        catalog.removeQueue(dropped);

        assertThat(catalog.queue("APP.ORDERS_Q")).isSameAs(created);
        assertThat(catalog.queue(11)).isSameAs(created);
        assertThat(catalog.queue(10)).isNull();
        assertThat(catalog.queues()).containsExactly(created);
    }
}
