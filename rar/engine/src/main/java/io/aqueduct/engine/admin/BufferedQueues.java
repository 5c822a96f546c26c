package io.aqueduct.engine.admin;

import io.aqueduct.api.BufferedQueueInfo;
import io.aqueduct.engine.queue.QueueRuntime;
import java.util.List;

/** What administration needs of the engine's buffered messages: their view, and dropping a removed subscriber's copies. */
public interface BufferedQueues {
    BufferedQueues NONE = new BufferedQueues() {
        @Override
        public List<BufferedQueueInfo> view() {
            return List.of();
        }

        @Override
        public void consumerRemoved(QueueRuntime queue, String consumerKey) {
        }
    };

    /** V$BUFFERED_QUEUES. */
    List<BufferedQueueInfo> view();

    /** A subscriber was removed: its buffered copies are dropped (as its persistent ones become UNDELIVERABLE). */
    void consumerRemoved(QueueRuntime queue, String consumerKey);
}
