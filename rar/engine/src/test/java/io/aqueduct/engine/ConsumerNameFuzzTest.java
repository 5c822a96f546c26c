package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.Agent;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.SortOrder;
import io.aqueduct.api.SubscriberInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Random and hostile text (quotes, {@code ;}, {@code --}, SQL keywords, LIKE wildcards, unicode,
 * control characters) as consumer names, agent names and addresses, correlations and subscriber
 * rules: every call either works or fails with an AqException carrying an AQ error number — never
 * a store failure (error code 0), never another exception — and a refused call changes nothing.
 */
class ConsumerNameFuzzTest extends MultiConsumerFixture {
    private static final String Q = "FUZZ_Q";
    private static final String QT = "FUZZ_QT";
    private static final long SEED = 0xA9_0EDCL;
    private static final int ROUNDS = 150;

    private static final String[] HOSTILE = {
        "'", "''", "\"", "\"\"", ";", "--", "/*", "*/", "DROP TABLE AQ_MESSAGE", "' OR '1'='1", "'; DELETE FROM AQ_SUBSCRIBER; --",
        "SELECT", "NULL", "AND", "OR", "UNION SELECT * FROM SYS.SYSTABLES", "AQ$_FUZZ_QT_E", "APP.", "%", "_", "\\", "\\'",
        "a", "Z9", "West_Shipping", "x", "$", "#", "@", "?", "=", "(", ")", ",", ".", " ", "\t", "\n", "\r\n", "\u0000",
        "\u00e9t\u00e9", "\u00df", "\u0130", "\ufb03", "\u65e5\u672c", "\ud83d\ude00", "\ud800", "\u202e", "\u0301",
        "\u00a0", "\u2028", "${jndi:ldap://x}", "<x/>", "]]>", "&amp;", "0", "-1", "1e999", "9223372036854775808",
    };

    private final Random random = new Random(SEED);
    private final List<String> violations = new ArrayList<>();

    @BeforeEach
    void queue() {
        multiConsumerQueue(Q, QT, PayloadType.JSON, SortOrder.ENQ_TIME, QueueProperties.create());
        admin.addSubscriber(Q, Agent.named("AUDIT"), null);
    }

    private String hostile() {
        StringBuilder b = new StringBuilder();
        int parts = 1 + random.nextInt(5);
        for (int i = 0; i < parts; i++) {
            if (random.nextInt(4) == 0) {
                int len = 1 + random.nextInt(8);
                for (int j = 0; j < len; j++) {
                    int cp = random.nextInt(3) == 0 ? 0x20 + random.nextInt(0x5F) : random.nextInt(0x2FFFF);
                    if (Character.isValidCodePoint(cp)) {
                        b.appendCodePoint(cp);
                    }
                }
            } else {
                b.append(HOSTILE[random.nextInt(HOSTILE.length)]);
            }
        }
        return b.toString();
    }

    private List<String> snapshot() {
        try {
            return storeSnapshot(List.of(Q), List.of(QT));
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }

    /** The outcome of one call: null when it worked, else its AqException; records anything unclean. */
    private AqException attempt(String what, Runnable call) {
        try {
            call.run();
            return null;
        } catch (AqException e) {
            if (e.errorCode() == AqError.STORE_FAILURE) {
                violations.add(what + " -> store failure (error code 0): " + e + (e.getCause() == null ? "" : " caused by " + e.getCause()));
            }
            return e;
        } catch (RuntimeException | Error e) {
            violations.add(what + " -> " + e);
            return new AqException(AqError.STORE_FAILURE, "unclean", e);
        }
    }

    /** A call that must either work or be refused leaving the store as it was. */
    private AqException refusedLeavesNothing(String what, Runnable call) {
        List<String> before = snapshot();
        AqException e = attempt(what, call);
        if (e != null) {
            List<String> after = snapshot();
            if (!after.equals(before)) {
                violations.add(what + " was refused (" + e.getMessage() + ") but changed the store: " + diff(before, after));
            }
        }
        return e;
    }

    private static String diff(List<String> before, List<String> after) {
        List<String> gone = new ArrayList<>(before);
        gone.removeAll(after);
        List<String> added = new ArrayList<>(after);
        added.removeAll(before);
        return "gone " + gone + ", added " + added;
    }

    private static String show(String s) {
        StringBuilder b = new StringBuilder("\"");
        s.codePoints().forEach(cp -> {
            if (cp < 0x20 || cp > 0x7E) {
                b.append(String.format("\\u%04x", cp));
            } else {
                b.appendCodePoint(cp);
            }
        });
        return b.append('"').toString();
    }

    /** Commits, and lets the time manager finish what the commit completed, so snapshots compare calm states. */
    private void commitAndSettle(QueueSession s) {
        s.commit();
        engine.timeManager().runDue();
    }

    private void assertClean() {
        assertThat(violations).as("unclean outcomes").isEmpty();
    }

    private MessageId enqueueForAudit(String json) {
        QueueSession s = session();
        MessageId id = s.enqueue(Q, Message.of(json));
        commitAndSettle(s);
        return id;
    }

    // ------------------------------------------------------------------ consumer names on dequeue

    @Test
    void hostile_consumer_names_on_dequeue_find_nothing_cleanly_and_change_nothing() {
        MessageId id = enqueueForAudit("{\"orderno\": 1}");
        QueueSession s = session();
        for (int i = 0; i < ROUNDS; i++) {
            String name = hostile();
            if (name.equalsIgnoreCase("AUDIT")) {
                continue;
            }
            for (DequeueMode mode : DequeueMode.values()) {
                AqException e = refusedLeavesNothing("dequeue as " + show(name) + " " + mode,
                        () -> s.dequeue(Q, as(name).mode(mode)));
                if (e == null) {
                    violations.add("dequeue as " + show(name) + " " + mode + " returned a message meant for AUDIT only");
                }
                s.rollback();
            }
            refusedLeavesNothing("dequeueArray as " + show(name), () -> s.dequeueArray(Q, as(name), 3));
            s.rollback();
        }
        assertClean();
        // AUDIT's message is still there, with no attempt counted
        assertThat(s.dequeue(Q, as("AUDIT").messageId(id).mode(DequeueMode.BROWSE)).properties().attempts()).isZero();
        assertThat(s.dequeue(Q, as("AUDIT")).id()).isEqualTo(id);
        commitAndSettle(s);
    }

    // ------------------------------------------------------------------ agent names and addresses

    @Test
    void hostile_agent_names_and_addresses_as_subscribers_are_added_cleanly_or_refused_without_a_trace() {
        QueueSession s = session();
        int added = 0;
        for (int i = 0; i < ROUNDS; i++) {
            final int round = i;
            String name = random.nextInt(5) == 0 ? null : hostile();
            String address = random.nextInt(3) == 0 ? hostile() : null;
            int protocol = random.nextInt(3);
            String what = "agent(" + (name == null ? "null" : show(name)) + ", " + (address == null ? "null" : show(address))
                    + ", " + protocol + ")";
            Supplier<Agent> agent = () -> new Agent(name, address, protocol);
            AqException refused = refusedLeavesNothing("addSubscriber " + what, () -> admin.addSubscriber(Q, agent.get(), null));
            if (refused != null) {
                continue;
            }
            added++;
            Agent a = agent.get();
            if (!admin.subscribers(Q).contains(new SubscriberInfo(a, null))) {
                violations.add("addSubscriber " + what + " worked but subscribers() does not list it");
            }
            MessageId[] id = new MessageId[1];
            attempt("enqueue for subscriber " + what, () -> {
                id[0] = s.enqueue(Q, Message.of("{\"orderno\": " + round + "}"));
                commitAndSettle(s);
            });
            if (a.address() == null && id[0] != null) {
                AqException e = attempt("dequeue as subscriber " + what, () -> {
                    MessageId got = s.dequeue(Q, as(a.name())).id();
                    commitAndSettle(s);
                    if (!got.equals(id[0])) {
                        violations.add("subscriber " + what + " got " + got + " instead of " + id[0]);
                    }
                });
                if (e != null) {
                    violations.add("subscriber " + what + " could not dequeue its message: " + e.getMessage());
                }
            }
            refusedLeavesNothing("removeSubscriber " + what, () -> admin.removeSubscriber(Q, a));
        }
        assertClean();
        assertThat(added).as("some hostile agents are valid").isPositive();
        assertThat(admin.subscribers(Q)).containsExactly(new SubscriberInfo(Agent.named("AUDIT"), null));
    }

    @Test
    void hostile_agent_names_and_addresses_as_recipients_are_enqueued_cleanly_or_refused_without_a_trace() {
        QueueSession s = session();
        for (int i = 0; i < ROUNDS; i++) {
            final int round = i;
            List<Agent> recipients = new ArrayList<>();
            StringBuilder what = new StringBuilder("recipients");
            int n = 1 + random.nextInt(3);
            AqException badAgent = null;
            for (int k = 0; k < n; k++) {
                String name = random.nextInt(6) == 0 ? null : hostile();
                String address = random.nextInt(3) == 0 ? hostile() : null;
                what.append(" (").append(name == null ? "null" : show(name)).append(", ")
                        .append(address == null ? "null" : show(address)).append(")");
                try {
                    recipients.add(new Agent(name, address, 0));
                } catch (AqException e) {
                    badAgent = e; // the agent itself is refused cleanly
                } catch (RuntimeException e) {
                    violations.add("new Agent" + what + " -> " + e);
                }
            }
            if (badAgent != null || recipients.isEmpty()) {
                continue;
            }
            MessageId[] id = new MessageId[1];
            AqException e = refusedLeavesNothing("enqueue to " + what, () -> {
                id[0] = s.enqueue(Q, Message.of("{\"orderno\": " + round + "}", MessageProperties.create().recipients(recipients)));
                commitAndSettle(s);
            });
            if (e != null) {
                s.rollback();
                continue;
            }
            for (Agent a : recipients) {
                if (a.address() != null) {
                    continue;
                }
                AqException d = attempt("dequeue as recipient " + show(a.name()), () -> {
                    MessageId got = s.dequeue(Q, as(a.name()).messageId(id[0])).id();
                    commitAndSettle(s);
                    if (!got.equals(id[0])) {
                        violations.add("recipient " + show(a.name()) + " got " + got + " instead of " + id[0]);
                    }
                });
                if (d != null) {
                    violations.add("recipient " + show(a.name()) + " of " + what + " could not dequeue: " + d.getMessage());
                    s.rollback();
                }
            }
        }
        assertClean();
    }

    // ------------------------------------------------------------------ correlations

    @Test
    void hostile_correlations_are_enqueued_and_dequeued_cleanly() {
        QueueSession s = session();
        int enqueued = 0;
        for (int i = 0; i < ROUNDS; i++) {
            final int round = i;
            String corr = hostile();
            MessageId[] id = new MessageId[1];
            AqException e = refusedLeavesNothing("enqueue with correlation " + show(corr), () -> {
                id[0] = s.enqueue(Q, Message.of("{\"orderno\": " + round + "}", MessageProperties.create().correlation(corr)));
                commitAndSettle(s);
            });
            if (e != null) {
                s.rollback();
                continue;
            }
            enqueued++;
            // a correlation matches itself, wildcards or not
            AqException browse = attempt("browse with correlation " + show(corr), () -> {
                Message m = s.dequeue(Q, as("AUDIT").correlation(corr).mode(DequeueMode.BROWSE));
                if (m.properties().correlation() == null) {
                    violations.add("browse with correlation " + show(corr) + " returned a message without correlation");
                }
            });
            if (browse != null) {
                violations.add("browse with correlation " + show(corr) + " found nothing: " + browse.getMessage());
            }
            AqException remove = attempt("remove with correlation " + show(corr), () -> {
                if (corr.indexOf('%') < 0 && corr.indexOf('_') < 0) {
                    MessageId got = s.dequeue(Q, as("AUDIT").correlation(corr)).id();
                    if (!got.equals(id[0])) {
                        violations.add("dequeue with correlation " + show(corr) + " got " + got + " instead of " + id[0]);
                    }
                } else {
                    s.dequeue(Q, as("AUDIT").messageId(id[0]));
                }
                commitAndSettle(s);
            });
            if (remove != null) {
                violations.add("dequeue with correlation " + show(corr) + " failed: " + remove.getMessage());
                s.rollback();
            }
            String other = hostile();
            refusedLeavesNothing("dequeue with correlation " + show(other), () -> s.dequeue(Q, as("AUDIT").correlation(other)));
            s.rollback();
        }
        assertClean();
        assertThat(enqueued).isPositive();
    }

    // ------------------------------------------------------------------ subscriber rules

    private static final String[] RULE_PARTS = {
        "tab.user_data.orderregion", "tab.user_data.customer.country", "priority", "corrid", "sender_name", "msgid",
        "retry_count", "tab.user_data.extract('/a[')", "tab.user_data.extract('/ORDER_TYP/ORDERNO/text()').getStringVal()",
        "existsNode(tab.user_data, '//*[')", "UPPER(", "LENGTH(", "NVL(", "=", "!=", "<>", "<", ">=", "LIKE", "IN (", "IS NULL",
        "AND", "OR", "NOT", "(", ")", ",", "'WESTERN'", "'O''Brien'", "1", "1e999", "-", "/", "0",
    };

    private String rule() {
        if (random.nextInt(3) == 0) {
            return hostile();
        }
        StringBuilder b = new StringBuilder();
        int parts = 1 + random.nextInt(7);
        for (int i = 0; i < parts; i++) {
            b.append(random.nextInt(5) == 0 ? hostile() : RULE_PARTS[random.nextInt(RULE_PARTS.length)]).append(' ');
        }
        return b.toString();
    }

    @Test
    void hostile_subscriber_rules_are_accepted_and_evaluated_cleanly_or_refused_without_a_trace() {
        QueueSession s = session();
        int accepted = 0;
        // a few that certainly parse, so that evaluation at enqueue is exercised
        List<String> rules = new ArrayList<>(List.of("tab.user_data.extract('/a[').getStringVal() = 'x'",
                "existsNode(tab.user_data, '//*[') = 1", "1e999 > priority", "corrid LIKE '%''; DROP TABLE AQ_MESSAGE; --%'",
                "tab.user_data.orderregion = 'WEST''ERN' OR 1 / 0 = 1", "LENGTH(tab.user_data) > 0"));
        for (int i = 0; i < ROUNDS; i++) {
            rules.add(rule());
        }
        for (int i = 0; i < rules.size(); i++) {
            String rule = rules.get(i);
            Agent agent = Agent.named("RULE_" + i);
            AqException refused = refusedLeavesNothing("addSubscriber with rule " + show(rule),
                    () -> admin.addSubscriber(Q, agent, rule));
            if (refused != null) {
                continue;
            }
            accepted++;
            for (String payload : List.of("{\"orderregion\": \"WESTERN\", \"customer\": {\"country\": \"USA\"}}", "[1]", "\"x\"")) {
                attempt("enqueue evaluating rule " + show(rule) + " on " + payload, () -> {
                    s.enqueue(Q, Message.of(payload, MessageProperties.create().correlation("C" + rule.length())));
                    commitAndSettle(s);
                });
            }
            String next = rule();
            refusedLeavesNothing("alterSubscriber to rule " + show(next), () -> admin.alterSubscriber(Q, agent, next));
            attempt("enqueue after alter", () -> {
                s.enqueue(Q, Message.of("{\"orderregion\": \"EASTERN\"}"));
                commitAndSettle(s);
            });
            refusedLeavesNothing("removeSubscriber " + agent, () -> admin.removeSubscriber(Q, agent));
        }
        assertClean();
        assertThat(accepted).isPositive();
        assertThat(admin.subscribers(Q)).containsExactly(new SubscriberInfo(Agent.named("AUDIT"), null));
    }

    @Test
    void a_long_valid_rule_is_stored_or_refused_cleanly() throws Exception {
        admin.addSubscriber(Q, Agent.named("WEST_SHIPPING"), "priority = 1");
        String longLiteral = "tab.user_data.orderregion = '" + "W".repeat(4100) + "'";
        String manyTerms = "priority = 1" + " OR priority = 1".repeat(300);

        for (String rule : List.of(longLiteral, manyTerms)) {
            String what = "rule of " + rule.length() + " characters";
            refusedLeavesNothing("addSubscriber with a " + what, () -> admin.addSubscriber(Q, Agent.named("EAST_SHIPPING"), rule));
            refusedLeavesNothing("alterSubscriber to a " + what, () -> admin.alterSubscriber(Q, Agent.named("WEST_SHIPPING"), rule));
            // whatever happened, the API and the store agree
            List<SubscriberInfo> listed = admin.subscribers(Q);
            for (SubscriberInfo info : listed) {
                List<java.util.Map<String, Object>> stored = query("SELECT RULE_TEXT FROM AQ_SUBSCRIBER WHERE NAME = ?",
                        info.agent().name());
                assertThat(stored).hasSize(1);
                assertThat(stored.get(0).get("RULE_TEXT")).as("stored rule of %s", info.agent().name()).isEqualTo(info.rule());
            }
            if (listed.stream().anyMatch(i -> i.agent().name().equals("EAST_SHIPPING"))) {
                admin.removeSubscriber(Q, Agent.named("EAST_SHIPPING"));
            }
            admin.alterSubscriber(Q, Agent.named("WEST_SHIPPING"), "priority = 1");
        }
        assertClean();
    }
}
