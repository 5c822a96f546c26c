package io.aqueduct.engine.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqError;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.QueueType;
import io.aqueduct.api.SortOrder;
import io.aqueduct.api.Visibility;
import io.aqueduct.engine.AqueductEngine;
import io.aqueduct.engine.time.ManualClock;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hostile input to the option and property classes and to the engine's Builder: refused with
 * 24097 / 44003 where they are built, or null taken as the documented default; an engine built
 * from refused settings never starts, and the fixture's engine is untouched.
 */
class HostileOptionsTest extends HostileFixture {

    // ------------------------------------------------------------------ AqueductEngine.Builder

    @ParameterizedTest(name = "maxPayloadBytes {0}")
    @ValueSource(longs = {0, -1, Long.MIN_VALUE})
    void builder_refuses_a_maxPayloadBytes_below_one(long bytes) {
        assertRefused(AqError.INVALID_VALUE, () -> AqueductEngine.builder().maxPayloadBytes(bytes));
    }

    @ParameterizedTest(name = "filter {0}")
    @ValueSource(strings = {"maxdepth=abc", "maxbytes=-", "=", "maxarray=99999999999999999999"})
    void builder_refuses_a_malformed_deserialization_filter(String patterns) {
        assertRefused(AqError.INVALID_VALUE, () -> AqueductEngine.builder().deserializationFilter(patterns));
    }

    @Test
    void builder_takes_a_null_or_blank_deserialization_filter_as_the_default() {
        AqueductEngine.builder().deserializationFilter(null).deserializationFilter("  ");
        assertSessionUsable(session);
    }

    @ParameterizedTest(name = "default schema {0}")
    @ValueSource(strings = {"", "  ", "1APP", "APP.X", "A B", "APP;DROP", "\"APP\"", "SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS", "APP\u0000"})
    void builder_refuses_a_default_schema_that_is_not_a_valid_schema_name(String schema) {
        String name = databaseName + "_schema";
        List<String> before = snapshot();
        AqueductEngine[] started = new AqueductEngine[1];
        try {
            expectError(schema.length() > 30 ? AqError.NAME_TOO_LONG : AqError.INVALID_NAME, () -> started[0] = AqueductEngine
                    .builder().derbyInMemory(name).timeManager(false).clock(new ManualClock()).defaultSchema(schema).start());
        } finally {
            if (started[0] != null) {
                started[0].close();
            }
        }
        assertThat(snapshot()).isEqualTo(before);
        assertSessionUsable(session);
    }

    @ParameterizedTest(name = "in-memory store name {0}")
    @NullSource
    @ValueSource(strings = {"", "  ", "x;drop=true", "x;shutdown=true", "../x", "x\u0000"})
    void builder_refuses_an_in_memory_store_name_that_is_not_a_plain_name(String storeName) {
        List<String> before = snapshot();
        AqueductEngine[] started = new AqueductEngine[1];
        try {
            expectError(AqError.INVALID_VALUE, () -> started[0] = AqueductEngine.builder().derbyInMemory(storeName)
                    .timeManager(false).clock(new ManualClock()).start());
        } finally {
            if (started[0] != null) {
                started[0].close();
            }
        }
        assertThat(snapshot()).isEqualTo(before);
        assertSessionUsable(session);
    }

    @Test
    void builder_refuses_a_null_clock_and_a_null_directory() {
        assertRefused(AqError.INVALID_VALUE, () -> AqueductEngine.builder().clock(null).derbyInMemory(databaseName + "_c")
                .timeManager(false).start().close());
        assertRefused(AqError.INVALID_VALUE, () -> AqueductEngine.builder().derbyDirectory(null));
    }

    // ------------------------------------------------------------------ MessageProperties

    @Test
    void message_properties_refuse_a_recipient_list_with_nulls_where_it_is_built() {
        assertRefused(AqError.INVALID_VALUE, () -> MessageProperties.create().recipients(Arrays.asList(Agent.named("A"), null)));
    }

    @Test
    void a_null_property_object_is_the_default_properties() {
        MessageId id = session.enqueue(TEXT_Q, Message.of("defaults", null));
        session.commit();
        Message m = session.dequeue(TEXT_Q, noWait().messageId(id));
        assertThat(m.properties().priority()).isEqualTo(MessageProperties.DEFAULT_PRIORITY);
        assertThat(m.properties().expiration()).isEqualTo(MessageProperties.NEVER);
        session.commit();
    }

    // ------------------------------------------------------------------ EnqueueOptions / DequeueOptions

    @Test
    void null_enqueue_and_dequeue_options_are_the_defaults() {
        MessageId id = session.enqueue(TEXT_Q, null, Message.of("x"));
        session.commit();
        assertThat(EnqueueOptions.create().visibility(null).visibility()).isEqualTo(Visibility.ON_COMMIT);
        DequeueOptions d = DequeueOptions.create().mode(null).navigation(null).visibility(null);
        assertThat(d.mode()).isEqualTo(DequeueMode.REMOVE);
        assertThat(d.navigation()).isEqualTo(Navigation.NEXT_MESSAGE);
        assertThat(d.visibility()).isEqualTo(Visibility.ON_COMMIT);
        assertThat(session.dequeueArray(TEXT_Q, null, 5)).extracting(Message::id).contains(id);
        session.commit();
        assertSessionUsable(session);
    }

    // ------------------------------------------------------------------ QueueProperties / QueueTableProperties / SortOrder

    @Test
    void queue_table_properties_refuse_OBJECT_without_a_class_and_take_null_as_the_defaults() {
        assertRefused(AqError.INVALID_VALUE, () -> QueueTableProperties.create().payloadType(io.aqueduct.api.PayloadType.OBJECT));
        QueueTableProperties p = QueueTableProperties.create().payloadType(null).sortOrder(null).messageGrouping(null);
        assertThat(p.payloadType()).isEqualTo(io.aqueduct.api.PayloadType.RAW);
        assertThat(p.sortOrder()).isEqualTo(SortOrder.ENQ_TIME);
        assertThat(QueueProperties.create().queueType(null).queueType()).isEqualTo(QueueType.NORMAL);
    }

    @ParameterizedTest(name = "comment with {0}")
    @ValueSource(strings = {"NUL \u0000", "lone surrogate \uD800"})
    void property_classes_refuse_comments_a_store_cannot_keep(String comment) {
        assertRefused(AqError.INVALID_VALUE, () -> QueueProperties.create().comment(comment));
        assertRefused(AqError.INVALID_VALUE, () -> QueueTableProperties.create().comment(comment));
    }

    @ParameterizedTest(name = "sort list {0}")
    @NullSource
    @ValueSource(strings = {"", "priority", "enq_time;DROP TABLE X", "enq_time,priority,enq_time", "deq_time"})
    void sort_lists_refuse_anything_but_the_three_orders(String sortList) {
        assertRefused(AqError.INVALID_VALUE, () -> SortOrder.fromSortList(sortList));
    }

    // ------------------------------------------------------------------ calls on a closed session

    @Test
    void closing_a_session_twice_is_harmless_and_the_engine_goes_on() {
        QueueSession s = engine.openSession();
        s.close();
        s.close();
        assertSessionUsable(session);
    }
}
