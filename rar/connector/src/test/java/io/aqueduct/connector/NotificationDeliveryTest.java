package io.aqueduct.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.aqueduct.api.AqNotification;
import io.aqueduct.api.AqNotificationListener;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.NotificationQos;
import io.aqueduct.api.RegistrationInfo;
import io.aqueduct.connector.inbound.AqNotificationActivationSpec;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.transaction.xa.XAResource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A notification MDB (an {@link AqNotificationListener} bean activated with an
 * {@link AqNotificationActivationSpec}): the adapter registers it, the engine's notification loop hands it
 * each notification through a container endpoint, a bean that throws gets a RELIABLE notification again,
 * and the registration outlives the bean.
 */
class NotificationDeliveryTest {
    private static final String QUEUE = "NT_ORDERS";
    private static final String DEFINITIONS = "table NT_QTAB payload=TEXT; queue " + QUEUE + " table=NT_QTAB";

    @TempDir
    Path store;
    private RunningAdapter ra;

    @BeforeEach
    void start() throws ResourceException {
        ra = RunningAdapter.onDerby(store, DEFINITIONS);
    }

    @AfterEach
    void stop() {
        ra.close();
    }

    /** The container's side of a notification bean: each endpoint is a proxy the bean's calls go through. */
    static final class Beans implements MessageEndpointFactory {
        final List<AqNotification> received = new CopyOnWriteArrayList<>();
        final AtomicInteger failuresLeft = new AtomicInteger();
        final AtomicInteger released = new AtomicInteger();
        final AtomicInteger created = new AtomicInteger();

        @Override
        public MessageEndpoint createEndpoint(XAResource xa) {
            created.incrementAndGet();
            return (MessageEndpoint) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {MessageEndpoint.class, AqNotificationListener.class}, (proxy, method, args) -> {
                        switch (method.getName()) {
                            case "onNotification" -> {
                                if (failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                                    throw new IllegalStateException("the bean failed on purpose");
                                }
                                received.add((AqNotification) args[0]);
                                return null;
                            }
                            case "release" -> {
                                released.incrementAndGet();
                                return null;
                            }
                            case "hashCode" -> {
                                return System.identityHashCode(proxy);
                            }
                            case "equals" -> {
                                return proxy == args[0];
                            }
                            case "toString" -> {
                                return "notification bean";
                            }
                            default -> {
                                return null;
                            }
                        }
                    });
        }

        @Override
        public MessageEndpoint createEndpoint(XAResource xa, long timeout) throws UnavailableException {
            return createEndpoint(xa);
        }

        @Override
        public boolean isDeliveryTransacted(Method method) {
            return true;
        }

        @Override
        public String getActivationName() {
            return "notification-bean";
        }

        @Override
        public Class<?> getEndpointClass() {
            return AqNotificationListener.class;
        }
    }

    private AqNotificationActivationSpec spec(String listener, String queue, String qos) throws ResourceException {
        AqNotificationActivationSpec spec = new AqNotificationActivationSpec();
        spec.setListenerName(listener);
        spec.setQueueName(queue);
        spec.setQos(qos);
        spec.setResourceAdapter(ra.adapter);
        return spec;
    }

    @Test
    void the_bean_is_registered_and_gets_one_notification_per_message_through_a_released_endpoint() throws ResourceException {
        Beans beans = new Beans();
        ra.adapter.endpointActivation(beans, spec("orders", QUEUE, ""));

        List<MessageId> ids = ra.enqueue(QUEUE, List.of("a", "b"));

        await().atMost(Duration.ofSeconds(30)).until(() -> beans.received.size() == 2);
        assertThat(beans.received).extracting(AqNotification::messageId).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(beans.received).extracting(AqNotification::queue).allMatch(q -> q.endsWith(QUEUE));
        assertThat(beans.released.get()).isEqualTo(beans.created.get());
    }

    @Test
    void a_bean_that_throws_gets_a_reliable_notification_again_and_the_failure_is_visible() throws ResourceException {
        Beans beans = new Beans();
        beans.failuresLeft.set(1);
        ra.adapter.endpointActivation(beans, spec("orders", QUEUE, "RELIABLE"));

        List<MessageId> ids = ra.enqueue(QUEUE, List.of("a"));

        await().atMost(Duration.ofSeconds(30)).until(() -> beans.received.size() == 1);
        assertThat(beans.received.get(0).messageId()).isEqualTo(ids.get(0));
        RegistrationInfo info = ra.adapter.engine().admin().registrations().get(0);
        assertThat(info.failed()).isEqualTo(1);
        assertThat(info.lastError()).contains("the bean failed on purpose");
        assertThat(info.qos()).contains(NotificationQos.RELIABLE);
    }

    @Test
    void the_registration_outlives_the_bean_and_a_second_bean_on_the_same_name_is_refused() throws ResourceException {
        Beans first = new Beans();
        AqNotificationActivationSpec spec = spec("orders", QUEUE, "");
        ra.adapter.endpointActivation(first, spec);
        assertThatThrownBy(() -> ra.adapter.endpointActivation(new Beans(), spec("orders", "", "")))
                .isInstanceOf(ResourceException.class).hasMessageContaining("java:orders");

        ra.adapter.endpointDeactivation(first, spec);
        assertThat(ra.adapter.engine().admin().registrations()).extracting(RegistrationInfo::notifyUrl)
                .containsExactly("java:orders");
        Beans second = new Beans();
        ra.adapter.endpointActivation(second, spec("orders", "", "")); // the application's registration, kept
        ra.enqueue(QUEUE, List.of("c"));
        await().atMost(Duration.ofSeconds(30)).until(() -> second.received.size() == 1);
        assertThat(first.received).isEmpty();
    }

    @Test
    void bad_activation_config_is_refused_naming_the_property_and_registers_nothing() throws ResourceException {
        assertThatThrownBy(() -> ra.adapter.endpointActivation(new Beans(), spec(" ", QUEUE, "")))
                .isInstanceOf(InvalidPropertyException.class).hasMessageContaining("listenerName is required");
        assertThatThrownBy(() -> ra.adapter.endpointActivation(new Beans(), spec("orders", QUEUE, "RELIABLE,LOUD")))
                .isInstanceOf(InvalidPropertyException.class).hasMessageContaining("LOUD");
        AqNotificationActivationSpec timeoutAlone = spec("orders", "", "");
        timeoutAlone.setTimeoutSeconds(60L);
        assertThatThrownBy(() -> ra.adapter.endpointActivation(new Beans(), timeoutAlone))
                .isInstanceOf(InvalidPropertyException.class).hasMessageContaining("give queueName too");
        assertThatThrownBy(() -> ra.adapter.endpointActivation(new Beans(), spec("orders", "NO_SUCH_QUEUE", "")))
                .isInstanceOf(ResourceException.class).hasMessageContaining("NO_SUCH_QUEUE");
        assertThat(ra.adapter.engine().admin().registrations()).isEmpty();
        // the refused activations left the name free
        ra.adapter.endpointActivation(new Beans(), spec("orders", QUEUE, ""));
    }
}
