package io.aqueduct.jms.message;

import jakarta.jms.Queue;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.Topic;

/** Minimal destinations for the tests (the real ones belong to the facade). */
final class TestDestinations {

    record TestQueue(String getQueueName) implements Queue {
    }

    record TestTopic(String getTopicName) implements Topic {
    }

    record TestTemporaryQueue(String getQueueName) implements TemporaryQueue {
        @Override
        public void delete() {
        }
    }

    record TestTemporaryTopic(String getTopicName) implements TemporaryTopic {
        @Override
        public void delete() {
        }
    }

    /** The resolver a facade would give the codec: rebuilds the same kinds of destination. */
    static final JmsMessageCodec.ReplyToResolver RESOLVER = (kind, name) -> switch (kind) {
        case QUEUE -> new TestQueue(name);
        case TOPIC -> new TestTopic(name);
        case TEMPORARY_QUEUE -> new TestTemporaryQueue(name);
        case TEMPORARY_TOPIC -> new TestTemporaryTopic(name);
    };

    private TestDestinations() {
    }
}
