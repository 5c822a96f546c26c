package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A dequeue may carry a Jakarta Messaging message selector (the syntax a JMS consumer gives):
 * only messages it selects are dequeued, a malformed one is refused before anything happens, and
 * with an AQ condition as well both must hold.
 */
class DequeueSelectorTest extends EngineFixture {
    private static final String Q = "JMS_Q";

    private QueueSession queueWithOrders() {
        startedQueue(Q, "JMS_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        QueueSession s = session();
        s.enqueue(Q, Message.of("east 2", MessageProperties.create().userProperty("region", "EAST").userProperty("qty", 2)));
        s.enqueue(Q, Message.of("west 3", MessageProperties.create().userProperty("region", "WEST").userProperty("qty", 3)
                .correlation("order-3")));
        s.enqueue(Q, Message.of("west 40 urgent", MessageProperties.create().userProperty("region", "WEST")
                .userProperty("qty", 40L).priority(0).userProperty("JMSType", "rush")));
        s.commit();
        return s;
    }

    private static List<String> browse(QueueSession s, String selector) {
        List<String> out = new ArrayList<>();
        for (io.aqueduct.api.DequeueOptions o = FIRST_NO_WAIT.copy().mode(DequeueMode.BROWSE).selector(selector);;
                o = o.copy().navigation(io.aqueduct.api.Navigation.NEXT_MESSAGE)) {
            try {
                out.add(s.dequeue(Q, o).text());
            } catch (io.aqueduct.api.AqException e) {
                assertThat(e.errorCode()).isEqualTo(AqError.NO_MESSAGE);
                return out;
            }
        }
    }

    @Test
    void a_selector_picks_by_properties_with_their_exact_names() {
        QueueSession s = queueWithOrders();
        assertThat(browse(s, "region = 'WEST' AND qty > 5")).containsExactly("west 40 urgent");
        assertThat(browse(s, "qty BETWEEN 2 AND 3")).containsExactly("east 2", "west 3");
        assertThat(browse(s, "Region = 'WEST'")).as("property names are case-sensitive in a selector").isEmpty();
        assertThat(browse(s, "region IN ('EAST', 'NORTH') OR missing IS NOT NULL")).containsExactly("east 2");
        assertThat(browse(s, "   ")).as("a blank selector selects everything").hasSize(3);
    }

    @Test
    void a_selector_reads_the_jms_header_fields() {
        QueueSession s = queueWithOrders();
        // AQ priority 0 is JMS priority 9; the default AQ priority 1 is JMS 8
        assertThat(browse(s, "JMSPriority = 9")).containsExactly("west 40 urgent");
        assertThat(browse(s, "JMSPriority = 8")).containsExactly("east 2", "west 3");
        assertThat(browse(s, "JMSCorrelationID = 'order-3'")).containsExactly("west 3");
        assertThat(browse(s, "JMSType = 'rush'")).containsExactly("west 40 urgent");
        MessageId id = s.dequeue(Q, FIRST_NO_WAIT.copy().mode(DequeueMode.BROWSE).selector("qty = 2")).id();
        assertThat(browse(s, "JMSMessageID = 'ID:" + id + "'")).containsExactly("east 2");
    }

    @Test
    void a_removing_dequeue_with_a_selector_takes_only_what_it_selects() {
        QueueSession s = queueWithOrders();
        // the queue table orders by enqueue time
        assertThat(s.dequeue(Q, FIRST_NO_WAIT.copy().selector("region = 'WEST'")).text()).isEqualTo("west 3");
        s.commit();
        assertThat(s.dequeue(Q, FIRST_NO_WAIT.copy().selector("region = 'WEST'")).text()).isEqualTo("west 40 urgent");
        s.commit();
        expectError(AqError.NO_MESSAGE, () -> s.dequeue(Q, FIRST_NO_WAIT.copy().selector("region = 'WEST'")));
        assertThat(browse(s, null)).containsExactly("east 2");
    }

    @Test
    void with_a_condition_as_well_both_must_hold() {
        QueueSession s = queueWithOrders();
        assertThat(s.dequeue(Q, FIRST_NO_WAIT.copy().mode(DequeueMode.BROWSE).selector("region = 'WEST'")
                .condition("corrid = 'order-3'")).text()).isEqualTo("west 3");
        expectError(AqError.NO_MESSAGE, () -> s.dequeue(Q, FIRST_NO_WAIT.copy().selector("region = 'EAST'")
                .condition("corrid = 'order-3'")));
    }

    @Test
    void a_malformed_selector_is_refused_before_anything_happens() throws Exception {
        QueueSession s = queueWithOrders();
        for (String bad : List.of("region = ", "tab.user_data.x = 1", "\"region\" = 'WEST'", "qty > 'five'",
                "region LIKE 5", "x = NULL", "((((qty > 1)")) {
            expectError(AqError.INVALID_EXPRESSION, () -> s.dequeue(Q, FIRST_NO_WAIT.copy().selector(bad)));
        }
        s.commit();
        assertThat(viewCount("JMS_QT")).as("nothing was dequeued").isEqualTo(3);
        assertThat(browse(s, null)).hasSize(3);
    }
}
