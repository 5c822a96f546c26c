package io.aqueduct.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aqueduct.api.AqConnectionFactory;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.Message;
import io.aqueduct.api.QueuePrivilege;
import io.aqueduct.api.QueueSession;
import io.aqueduct.connector.outbound.AqManagedConnectionFactory;
import jakarta.security.jacc.PolicyContext;
import jakarta.security.jacc.PolicyContextHandler;
import java.nio.file.Path;
import java.security.Principal;
import javax.security.auth.Subject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter's queue sessions work as the container's authenticated caller (its Subject, read
 * through Jakarta Authorization as Payara answers it: the caller's principal beside its groups), so
 * that AQ's privileges apply to that caller; an anonymous caller, or none, works as the configured /
 * adapter user as before; a user the application names still wins. The container is faked by a
 * PolicyContextHandler that answers the Subject this test sets.
 */
class CallerIdentityTest {
    private static final String QUEUE = "OE.ORDERS";
    private static volatile Subject caller;

    @TempDir
    Path dir;
    private RunningAdapter ra;
    private AqConnectionFactory factory;

    /** Payara's principals: the caller, and one per group it belongs to. */
    record UserPrincipal(String getName) implements Principal {
    }

    record Group(String getName) implements Principal {
    }

    @BeforeAll
    static void containerAnswersTheCallersSubject() throws Exception {
        PolicyContext.registerHandler("javax.security.auth.Subject.container", new PolicyContextHandler() {
            @Override
            public Object getContext(String key, Object data) {
                return caller;
            }

            @Override
            public String[] getKeys() {
                return new String[] {"javax.security.auth.Subject.container"};
            }

            @Override
            public boolean supports(String key) {
                return "javax.security.auth.Subject.container".equals(key);
            }
        }, true);
    }

    @BeforeEach
    void start() throws Exception {
        ra = RunningAdapter.onDerby(dir, "table OE.ORDERS_QTAB payload=TEXT; queue " + QUEUE + " table=OE.ORDERS_QTAB");
        AqManagedConnectionFactory mcf = new AqManagedConnectionFactory();
        mcf.setResourceAdapter(ra.adapter);
        factory = (AqConnectionFactory) mcf.createConnectionFactory();
    }

    @AfterEach
    void stop() {
        caller = null;
        if (ra != null) {
            ra.close();
        }
    }

    private static Subject subject(Principal... principals) {
        Subject s = new Subject();
        s.getPrincipals().addAll(java.util.List.of(principals));
        return s;
    }

    @Test
    void an_authenticated_caller_works_with_its_own_privileges() throws Exception {
        caller = subject(new UserPrincipal("clerk"), new Group("staff"));
        try (QueueSession s = factory.openSession()) {
            assertThatThrownBy(() -> s.enqueue(QUEUE, Message.of("order"))).isInstanceOfSatisfying(AqException.class, e -> {
                assertThat(e.errorCode()).isEqualTo(AqError.INSUFFICIENT_PRIVILEGES);
                assertThat(e.getMessage()).startsWith("AQ-01031: clerk may not enqueue into OE.ORDERS");
            });
        }
        ra.adapter.engine().admin().grantQueuePrivilege(QueuePrivilege.ENQUEUE, QUEUE, "CLERK", false);
        try (QueueSession s = factory.openSession()) {
            s.enqueue(QUEUE, Message.of("order"));
            s.commit();
        }
    }

    @Test
    void an_anonymous_caller_or_none_works_as_the_adapters_user_as_before() throws Exception {
        for (Subject anonymous : new Subject[] {null, subject(), subject(new UserPrincipal("ANONYMOUS"))}) {
            caller = anonymous;
            try (QueueSession s = factory.openSession()) {
                s.enqueue(QUEUE, Message.of("order"));
                s.commit();
            }
        }
    }

    @Test
    void a_user_the_application_names_wins_over_the_caller() throws Exception {
        caller = subject(new UserPrincipal("clerk"), new Group("staff"));
        try (QueueSession s = factory.openSession("CONNECTOR_TEST")) {
            s.enqueue(QUEUE, Message.of("as the adapter's user"));
            s.commit();
        }
    }

    @Test
    void a_subject_whose_caller_cannot_be_told_apart_is_no_caller() throws Exception {
        caller = subject(new UserPrincipal("clerk"), new UserPrincipal("other"));
        try (QueueSession s = factory.openSession()) {
            s.enqueue(QUEUE, Message.of("as the adapter's user"));
            s.commit();
        }
    }
}
