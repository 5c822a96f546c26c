package io.aqueduct.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aqueduct.api.AqAgentInfo;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.QueueType;
import io.aqueduct.api.SubscriberInfo;
import io.aqueduct.api.SystemPrivilege;
import io.aqueduct.api.SystemPrivilegeInfo;
import jakarta.resource.spi.ResourceAdapterInternalException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The adapter's {@code queueDefinitions}: a valid text is accepted and creates what it declares
 * (once: a restart leaves existing objects as they are); a malformed one is refused before
 * anything is created, with AQ 24097 and a message that quotes the definition and says what is wrong.
 */
class QueueDefinitionsTest {
    private static final String VALID = """
            table OE.ORDERS_QTAB payload=JSON sort=priority,enq_time comment="orders; booked";
            queue OE.BOOKED_ORDERS table=OE.ORDERS_QTAB max_retries=4 retry_delay=43200 retention=0;
            table OE.SHIP_QTAB payload=JSON multiple_consumers=true;
            queue OE.SHIPPING table=OE.SHIP_QTAB;
            subscriber OE.SHIPPING name=WEST_SHIPPING rule="tab.user_data.region = 'WESTERN' and tab.priority < 3";
            queue OE.ORDERS_FAILED table=OE.ORDERS_QTAB type=exception
            """;

    @TempDir
    Path store;

    @Test
    void a_valid_text_is_accepted() {
        QueueDefinitions.parse(VALID);
        QueueDefinitions.parse("");
        QueueDefinitions.parse(null);
        QueueDefinitions.parse(" ; ;");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            queue OE.Q                                  | a queue needs table=<queue table>
            table                                       | a definition is 'table <name> key=value ...'
            topic OE.T payload=JSON                     | unknown kind 'topic'
            table OE.T payload=JSON colour=blue         | unknown setting 'colour'
            table OE.T payload                          | 'payload' is not key=value
            table OE.T comment=half"quoted"             | quote the whole value
            subscriber OE.SHIPPING rule="a = 1"         | a subscriber needs name=<agent name>
            agent JOHN http=yes                         | http=yes is not true or false
            agent JOHN db_users=CBADM,2FAST             | '2FAST' is no valid database user name
            agent john.doe http=true                    | 'john.doe' is no valid agent name
            agent JOHN enable_http=true                 | unknown setting 'enable_http'
            grant SELECT queue=OE.Q to=CBADM            | 'SELECT' is no privilege
            grant ENQUEUE to=CBADM                      | a grant of ENQUEUE needs queue=<queue>
            grant DEQUEUE queue=OE.Q                    | a grant needs to=<user>
            grant ENQUEUE_ANY queue=OE.Q to=CBADM       | ENQUEUE_ANY is a system privilege (every queue): it takes no queue=
            grant ENQUEUE queue=OE.Q to=CBADM admin_option=true | admin_option is for system privileges
            grant MANAGE_ANY to=CBADM grant_option=true | grant_option is for queue privileges
            grant ALL queue=OE.Q to=CBADM grant_option=1 | grant_option=1 is not true or false
            """)
    void a_malformed_definition_is_refused_naming_it_and_what_is_wrong(String definition, String reason) {
        assertThatThrownBy(() -> QueueDefinitions.parse("table OE.FINE_QTAB payload=TEXT; " + definition))
                .isInstanceOfSatisfying(AqException.class, e -> assertThat(e.errorCode()).isEqualTo(AqError.INVALID_VALUE))
                .hasMessageContaining("Invalid queue definition '" + definition.trim() + "'")
                .hasMessageContaining(reason);
    }

    @Test
    void a_double_quote_left_open_is_refused() {
        // where a definition ends is unknown then (a ';' may be quoted): the message quotes the text from there on
        assertThatThrownBy(() -> QueueDefinitions.parse("table OE.T comment=\"never closed; queue OE.Q table=OE.T"))
                .isInstanceOfSatisfying(AqException.class, e -> assertThat(e.errorCode()).isEqualTo(AqError.INVALID_VALUE))
                .hasMessageContaining("comment=\"never closed; queue OE.Q table=OE.T")
                .hasMessageContaining("a double quote is not closed");
    }

    @Test
    void the_adapter_creates_what_the_definitions_declare_once_and_keeps_it_across_restarts() throws Exception {
        try (RunningAdapter ra = RunningAdapter.onDerby(store, VALID)) {
            var admin = ra.adapter.engine().admin();
            assertThat(admin.queue("OE.BOOKED_ORDERS").maxRetries()).isEqualTo(4);
            assertThat(admin.queue("OE.BOOKED_ORDERS").retryDelaySeconds()).isEqualTo(43200);
            assertThat(admin.queue("OE.BOOKED_ORDERS").dequeueEnabled()).isTrue();
            assertThat(admin.queue("OE.ORDERS_FAILED").queueType()).isEqualTo(QueueType.EXCEPTION);
            assertThat(admin.queue("OE.ORDERS_FAILED").enqueueEnabled()).isFalse();
            assertThat(admin.queue("OE.ORDERS_FAILED").dequeueEnabled()).isTrue();
            assertThat(admin.queueTable("OE.ORDERS_QTAB").comment()).isEqualTo("orders; booked");
            assertThat(admin.subscribers("OE.SHIPPING")).extracting(s -> s.agent().name()).containsExactly("WEST_SHIPPING");
            ra.enqueue("OE.BOOKED_ORDERS", java.util.List.of("{\"orderno\": 1}"));
        }
        try (RunningAdapter again = RunningAdapter.onDerby(store, VALID)) {
            var admin = again.adapter.engine().admin();
            assertThat(admin.subscribers("OE.SHIPPING")).extracting(SubscriberInfo::rule).hasSize(1);
            assertThat(again.browse("OE.BOOKED_ORDERS")).as("the message enqueued before the restart")
                    .extracting(m -> m.text().replace(" ", "")).containsExactly("{\"orderno\":1}");
        }
    }

    private static final String AGENTS_AND_GRANTS = VALID + """
            ;agent John http=true smtp=false db_users=CBADM;
            agent MAILER smtp=true;
            grant ENQUEUE queue=OE.BOOKED_ORDERS to=CBADM grant_option=false;
            grant ALL queue=OE.Booked_Orders to=Shipping;
            grant DEQUEUE_ANY to=AUDITOR admin_option=true;
            grant ENQUEUE_ANY to=PUBLIC
            """;

    @Test
    void agents_and_grants_are_created_once_and_what_an_administrator_changed_since_is_left_alone() throws Exception {
        try (RunningAdapter ra = RunningAdapter.onDerby(store, AGENTS_AND_GRANTS)) {
            var admin = ra.adapter.engine().admin();
            assertThat(admin.aqAgents()).containsExactly(new AqAgentInfo("JOHN", true, false, List.of("CBADM")),
                    new AqAgentInfo("MAILER", false, true, List.of()));
            assertThat(admin.queuePrivileges()).extracting(p -> p.grantee() + " " + p.owner() + "." + p.queue() + " "
                    + p.enqueue() + "/" + p.dequeue() + " " + p.enqueueGrantable())
                    .containsExactlyInAnyOrder("CBADM OE.BOOKED_ORDERS true/false false", "SHIPPING OE.BOOKED_ORDERS true/true false");
            assertThat(admin.systemPrivileges()).containsExactlyInAnyOrder(
                    new SystemPrivilegeInfo("AUDITOR", SystemPrivilege.DEQUEUE_ANY, true),
                    new SystemPrivilegeInfo("PUBLIC", SystemPrivilege.ENQUEUE_ANY, false));
            // an administrator's changes after the start
            admin.alterAqAgent("JOHN", false, null);
            admin.enableDbAccess("JOHN", "OE");
        }
        try (RunningAdapter again = RunningAdapter.onDerby(store, AGENTS_AND_GRANTS.replace("db_users=CBADM", "db_users=CBADM,BILLING"))) {
            var admin = again.adapter.engine().admin();
            assertThat(admin.aqAgents()).as("flags left as the administrator set them; a database user added to the definition mapped")
                    .contains(new AqAgentInfo("JOHN", false, false, List.of("BILLING", "CBADM", "OE")));
            assertThat(admin.queuePrivileges()).as("no second grant").hasSize(2);
            assertThat(admin.systemPrivileges()).hasSize(2);
        }
    }

    @Test
    void a_grant_on_a_queue_that_does_not_exist_stops_the_adapter_naming_it() {
        assertThatThrownBy(() -> RunningAdapter.onDerby(store, "grant ENQUEUE queue=OE.NO_SUCH_Q to=CBADM"))
                .isInstanceOf(ResourceAdapterInternalException.class)
                .hasMessageContaining("Queue definition 'grant ENQUEUE' failed")
                .hasMessageContaining("NO_SUCH_Q");
    }

    @Test
    void an_adapter_with_malformed_definitions_does_not_start_and_says_why() {
        assertThatThrownBy(() -> RunningAdapter.onDerby(store, "table OE.T payload=JSON; queue OE.Q tabel=OE.T"))
                .isInstanceOf(ResourceAdapterInternalException.class)
                .hasMessageContaining("Invalid queue definition 'queue OE.Q tabel=OE.T'")
                .hasMessageContaining("unknown setting 'tabel'");
    }

    @Test
    void an_adapter_whose_definition_names_an_unknown_queue_table_does_not_start_and_says_why() {
        assertThatThrownBy(() -> RunningAdapter.onDerby(store, "queue OE.Q table=OE.NO_SUCH_QTAB"))
                .isInstanceOf(ResourceAdapterInternalException.class)
                .hasMessageContaining("Queue definition 'queue OE.Q' failed")
                .hasMessageContaining("NO_SUCH_QTAB");
    }
}
