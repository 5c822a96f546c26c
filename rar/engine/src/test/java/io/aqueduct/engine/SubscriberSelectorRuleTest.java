package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.Agent;
import io.aqueduct.api.JmsPriority;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.RuleSyntax;
import io.aqueduct.api.SortOrder;
import io.aqueduct.api.SubscriberInfo;
import io.aqueduct.engine.store.Dialects;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A subscriber's rule may be a Jakarta Messaging message selector (what a JMS durable subscription
 * becomes): evaluated at enqueue time in selector syntax and semantics — headers JMSPriority,
 * JMSCorrelationID, JMSType, user properties by their exact name, no conversions between types — and
 * stored with its syntax, so that it reads the same after a restart. A malformed selector is 25448
 * before anything is written, as a malformed condition is.
 */
class SubscriberSelectorRuleTest extends MultiConsumerFixture {
    private static final String Q = "NEWS_Q";
    private static final String QT = "NEWS_QT";
    private static final Agent WEST_URGENT = Agent.named("West_Urgent");
    private static final Agent RUSH = Agent.named("Rush");
    private static final Agent EVERYONE = Agent.named("Everyone");

    private void newsQueue() {
        multiConsumerQueue(Q, QT, PayloadType.TEXT, SortOrder.ENQ_TIME, QueueProperties.create());
    }

    private static MessageProperties jms(int jmsPriority) {
        return MessageProperties.create().priority(JmsPriority.toAq(jmsPriority));
    }

    /** Enqueues (and commits) the messages the delivery tests route. */
    private void enqueueNews(QueueSession s) {
        s.enqueue(Q, Message.of("west urgent", jms(9).userProperty("region", "WEST")));
        s.enqueue(Q, Message.of("west routine", jms(4).userProperty("region", "WEST")));
        s.enqueue(Q, Message.of("east urgent", jms(8).userProperty("region", "EAST")));
        s.enqueue(Q, Message.of("rush typed", jms(4).userProperty("JMSType", "rush")));
        s.enqueue(Q, Message.of("order correlated", jms(4).correlation("order-17")));
        s.commit();
    }

    @Test
    void a_subscriber_with_a_selector_receives_only_the_messages_its_selector_selects() {
        newsQueue();
        admin.addSubscriber(Q, WEST_URGENT, "region = 'WEST' AND JMSPriority >= 7", null, RuleSyntax.SELECTOR);
        admin.addSubscriber(Q, RUSH, "JMSType = 'rush' OR JMSCorrelationID LIKE 'order-%'", null, RuleSyntax.SELECTOR);
        admin.addSubscriber(Q, EVERYONE, null, null, RuleSyntax.SELECTOR);
        QueueSession s = session();
        enqueueNews(s);

        assertThat(drain(s, Q, "West_Urgent")).containsExactly("west urgent");
        assertThat(drain(s, Q, "Rush")).containsExactly("rush typed", "order correlated");
        assertThat(drain(s, Q, "Everyone")).containsExactly("west urgent", "west routine", "east urgent", "rush typed",
                "order correlated");
    }

    @Test
    void the_same_text_is_read_in_the_syntax_the_subscriber_was_given() {
        newsQueue();
        // a condition converts the string '5' to compare it with 2; a selector compares no values of different types
        admin.addSubscriber(Q, Agent.named("Cond"), "qty > 2", null, RuleSyntax.CONDITION);
        admin.addSubscriber(Q, Agent.named("Sel"), "qty > 2", null, RuleSyntax.SELECTOR);
        // a condition's names are case-insensitive; a selector's are exact
        admin.addSubscriber(Q, Agent.named("Cond_Case"), "REGION = 'WEST'", null, RuleSyntax.CONDITION);
        admin.addSubscriber(Q, Agent.named("Sel_Case"), "REGION = 'WEST'", null, RuleSyntax.SELECTOR);
        admin.addSubscriber(Q, EVERYONE, null);
        QueueSession s = session();
        s.enqueue(Q, Message.of("qty as text", MessageProperties.create().userProperty("qty", "5")));
        s.enqueue(Q, Message.of("qty as number", MessageProperties.create().userProperty("qty", 5)));
        s.enqueue(Q, Message.of("lower-case region", MessageProperties.create().userProperty("region", "WEST")));
        s.commit();

        assertThat(drain(s, Q, "Cond")).containsExactly("qty as text", "qty as number");
        assertThat(drain(s, Q, "Sel")).containsExactly("qty as number");
        assertThat(drain(s, Q, "Cond_Case")).containsExactly("lower-case region");
        assertThat(drain(s, Q, "Sel_Case")).isEmpty();
    }

    @Test
    void subscribers_report_the_syntax_of_their_rules_and_the_older_overloads_mean_condition() {
        newsQueue();
        admin.addSubscriber(Q, Agent.named("A"), "corrid = 'X'");
        admin.addSubscriber(Q, Agent.named("B"), "JMSCorrelationID = 'X'", null, RuleSyntax.SELECTOR);
        admin.addSubscriber(Q, Agent.named("C"), "priority = 1", null, null); // null syntax: a condition
        admin.addSubscriber(Q, Agent.named("D"), "   ", null, RuleSyntax.SELECTOR); // blank selector: no rule

        assertThat(admin.subscribers(Q)).containsExactly(
                new SubscriberInfo(Agent.named("A"), "corrid = 'X'", null, RuleSyntax.CONDITION),
                new SubscriberInfo(Agent.named("B"), "JMSCorrelationID = 'X'", null, RuleSyntax.SELECTOR),
                new SubscriberInfo(Agent.named("C"), "priority = 1", null, RuleSyntax.CONDITION),
                new SubscriberInfo(Agent.named("D"), null, null, RuleSyntax.SELECTOR));
        assertThat(new SubscriberInfo(Agent.named("A"), "corrid = 'X'").syntax()).isEqualTo(RuleSyntax.CONDITION);

        QueueSession s = session();
        s.enqueue(Q, Message.of("anything"));
        s.commit();
        assertThat(drain(s, Q, "D")).containsExactly("anything");
    }

    @Test
    void alter_subscriber_switches_the_rule_between_condition_and_selector() throws Exception {
        newsQueue();
        admin.addSubscriber(Q, WEST_URGENT, "region = 'WEST'");
        admin.addSubscriber(Q, EVERYONE, null);

        admin.alterSubscriber(Q, WEST_URGENT, "region = 'WEST' AND JMSPriority = 9", null, RuleSyntax.SELECTOR);
        assertThat(admin.subscribers(Q)).first().isEqualTo(
                new SubscriberInfo(WEST_URGENT, "region = 'WEST' AND JMSPriority = 9", null, RuleSyntax.SELECTOR));
        assertThat(query("SELECT RULE_SYNTAX FROM AQ_SUBSCRIBER WHERE NAME = ?", "West_Urgent"))
                .containsExactly(Map.of("RULE_SYNTAX", "SELECTOR"));
        QueueSession s = session();
        enqueueNews(s);
        assertThat(drain(s, Q, "West_Urgent")).containsExactly("west urgent");

        // the overload without a syntax makes it a condition again (priority is then AQ's priority)
        admin.alterSubscriber(Q, WEST_URGENT, "priority = 5");
        assertThat(admin.subscribers(Q)).first().isEqualTo(
                new SubscriberInfo(WEST_URGENT, "priority = 5", null, RuleSyntax.CONDITION));
        assertThat(query("SELECT RULE_SYNTAX FROM AQ_SUBSCRIBER WHERE NAME = ?", "West_Urgent"))
                .containsExactly(Map.of("RULE_SYNTAX", "CONDITION"));
        enqueueNews(s);
        assertThat(drain(s, Q, "West_Urgent")).containsExactly("west routine", "rush typed", "order correlated");
    }

    @Test
    void a_malformed_selector_fails_with_25448_and_nothing_is_stored() throws Exception {
        newsQueue();
        admin.addSubscriber(Q, WEST_URGENT, "region = 'WEST'", null, RuleSyntax.SELECTOR);
        QueueSession s = session();
        s.enqueue(Q, Message.of("pending", MessageProperties.create().userProperty("region", "WEST")));
        s.commit();
        List<String> before = storeSnapshot(List.of(Q), List.of(QT));

        // valid conditions among them: dotted names, != and functions are not selector syntax
        for (String bad : List.of("region =", "region = 'WEST", "(JMSPriority > 1", "tab.user_data.region = 'WEST'",
                "region != 'WEST'", "UPPER(region) = 'WEST'", "region = NULL", "JMSPriority > 'high'",
                "x".repeat(3997) + " > 1" /* 4001 bytes */)) {
            expectError(AqError.INVALID_EXPRESSION, () -> admin.addSubscriber(Q, RUSH, bad, null, RuleSyntax.SELECTOR));
            expectError(AqError.INVALID_EXPRESSION,
                    () -> admin.alterSubscriber(Q, WEST_URGENT, bad, null, RuleSyntax.SELECTOR));
        }

        assertThat(storeSnapshot(List.of(Q), List.of(QT))).isEqualTo(before);
        assertThat(admin.subscribers(Q)).containsExactly(
                new SubscriberInfo(WEST_URGENT, "region = 'WEST'", null, RuleSyntax.SELECTOR));
        assertThat(drain(s, Q, "West_Urgent")).containsExactly("pending");
    }

    @Test
    void a_selector_rule_and_its_syntax_survive_a_restart_of_the_engine(@TempDir Path dir) {
        restartable(dir);
        newsQueue();
        admin.addSubscriber(Q, WEST_URGENT, "region = 'WEST' AND JMSPriority >= 7", null, RuleSyntax.SELECTOR);
        admin.addSubscriber(Q, RUSH, "JMSType = 'rush'", null, RuleSyntax.SELECTOR);
        admin.addSubscriber(Q, EVERYONE, "priority >= 0");
        List<SubscriberInfo> before = admin.subscribers(Q);

        restart(dir);
        assertThat(admin.subscribers(Q)).isEqualTo(before);
        QueueSession s = session();
        enqueueNews(s);
        assertThat(drain(s, Q, "West_Urgent")).containsExactly("west urgent");
        assertThat(drain(s, Q, "Rush")).containsExactly("rush typed");
        assertThat(drain(s, Q, "Everyone")).hasSize(5);
    }

    // ------------------------------------------------------------------ a durable store to restart on

    /** Replaces the fixture's engine by one on a store that outlives it: a Derby directory, or the shared test store. */
    private void restartable(Path dir) {
        if (!sharedStore()) {
            engine.close(); // an in-memory Derby database goes with its engine
            engine = durable(dir);
            admin = engine.admin();
        }
    }

    private void restart(Path dir) {
        engine.close();
        engine = durable(dir);
        admin = engine.admin();
    }

    private AqueductEngine durable(Path dir) {
        AqueductEngine.Builder b = AqueductEngine.builder().clock(clock).user("TESTER");
        return (sharedStore() ? b.dialect(Dialects.forJdbc(TestStore.CURRENT.settings())).defaultSchema("APP")
                : b.derbyDirectory(dir.resolve("store"))).start();
    }
}
