package io.aqueduct.jms.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Session;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a context decides itself, before any queue is involved, over a recording fake connection. */
class ContextRulesTest {
    private final FakeClassic classic = new FakeClassic();

    @ParameterizedTest
    @ValueSource(ints = {-1, 4, 5, 42})
    void anUnknownSessionModeIsRefusedWithTheModesThatExistAndTheConnectionIsClosed(int mode) {
        assertThatThrownBy(() -> AqueductJMSContext.create(classic.connection, mode))
                .isExactlyInstanceOf(JMSRuntimeException.class)
                .hasMessageContaining("Session mode " + mode)
                .hasMessageContaining("AUTO_ACKNOWLEDGE (1)")
                .hasMessageContaining("SESSION_TRANSACTED (0)");
        assertThat(classic.connectionClosed()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {JMSContext.AUTO_ACKNOWLEDGE, JMSContext.CLIENT_ACKNOWLEDGE, JMSContext.DUPS_OK_ACKNOWLEDGE,
            JMSContext.SESSION_TRANSACTED})
    void theFourSessionModesAreAcceptedAndReported(int mode) {
        JMSContext context = AqueductJMSContext.create(classic.connection, mode);

        assertThat(context.getSessionMode()).isEqualTo(mode);
        assertThat(context.getTransacted()).isEqualTo(mode == JMSContext.SESSION_TRANSACTED);
        assertThat(classic.connectionClosed()).isFalse();
    }

    @Test
    void theSessionIsOpenedOnFirstUseSoTheClientIdCanStillBeSet() {
        JMSContext context = AqueductJMSContext.create(classic.connection, JMSContext.AUTO_ACKNOWLEDGE);

        context.setClientID("orders");
        context.createTextMessage("first use");

        assertThat(classic.calls).containsSubsequence("setClientID(orders)", "createSession(" + Session.CLIENT_ACKNOWLEDGE + ")");
    }

    @ParameterizedTest
    @ValueSource(ints = {JMSContext.AUTO_ACKNOWLEDGE, JMSContext.DUPS_OK_ACKNOWLEDGE})
    void automaticAcknowledgementRunsOnAClientAcknowledgedSessionTheContextAcknowledges(int mode) {
        JMSContext context = AqueductJMSContext.create(classic.connection, mode);

        context.createMessage();

        assertThat(classic.calls).contains("createSession(" + Session.CLIENT_ACKNOWLEDGE + ")");
        assertThat(context.getSessionMode()).isEqualTo(mode);
    }

    @ParameterizedTest
    @ValueSource(ints = {JMSContext.CLIENT_ACKNOWLEDGE, JMSContext.SESSION_TRANSACTED})
    void clientAcknowledgeAndTransactedSessionsAreOpenedAsAsked(int mode) {
        AqueductJMSContext.create(classic.connection, mode).createMessage();

        assertThat(classic.calls).contains("createSession(" + mode + ")");
    }

    @Test
    void contextsMadeFromAContextShareItsConnectionWhichClosesWithTheLastOfThem() {
        JMSContext first = AqueductJMSContext.create(classic.connection, JMSContext.AUTO_ACKNOWLEDGE);
        JMSContext second = first.createContext(JMSContext.SESSION_TRANSACTED);
        JMSContext third = second.createContext(JMSContext.CLIENT_ACKNOWLEDGE);

        first.close();
        third.close();
        assertThat(classic.connectionClosed()).isFalse();
        assertThat(second.getClientID()).isEqualTo("client-1");

        second.close();
        assertThat(classic.connectionClosed()).isTrue();
    }

    @Test
    void createContextWithAnUnknownModeLeavesTheSharedConnectionOpen() {
        JMSContext first = AqueductJMSContext.create(classic.connection, JMSContext.AUTO_ACKNOWLEDGE);

        assertThatThrownBy(() -> first.createContext(9)).isExactlyInstanceOf(JMSRuntimeException.class);

        assertThat(classic.connectionClosed()).isFalse();
        first.close();
        assertThat(classic.connectionClosed()).isTrue();
    }

    @Test
    void closingTwiceClosesOnceAndDoesNotThrow() {
        JMSContext context = AqueductJMSContext.create(classic.connection, JMSContext.AUTO_ACKNOWLEDGE);
        context.createMessage();

        context.close();
        context.close();

        assertThat(classic.calls).containsOnlyOnce("session.close()", "close()");
    }

    @Test
    void aClosedContextRefusesWorkWithIllegalState() {
        JMSContext context = AqueductJMSContext.create(classic.connection, JMSContext.CLIENT_ACKNOWLEDGE);
        context.close();

        assertThatThrownBy(context::createProducer).isInstanceOf(IllegalStateRuntimeException.class);
        assertThatThrownBy(context::acknowledge).isInstanceOf(IllegalStateRuntimeException.class);
        assertThatThrownBy(() -> context.createContext(JMSContext.AUTO_ACKNOWLEDGE))
                .isInstanceOf(IllegalStateRuntimeException.class);
        assertThatThrownBy(context::createTextMessage).isInstanceOf(IllegalStateRuntimeException.class);
    }

    @Test
    void aCheckedFailureOfTheSessionReachesTheApplicationAsItsRuntimeTwin() {
        JMSContext context = AqueductJMSContext.create(classic.connection, JMSContext.AUTO_ACKNOWLEDGE);

        assertThatThrownBy(context::commit).isExactlyInstanceOf(IllegalStateRuntimeException.class)
                .hasMessage("the session is not transacted")
                .hasCauseInstanceOf(jakarta.jms.IllegalStateException.class);
    }

    @Test
    void recoverOfATransactedContextIsIllegal() {
        JMSContext context = AqueductJMSContext.create(classic.connection, JMSContext.SESSION_TRANSACTED);

        assertThatThrownBy(context::recover).isExactlyInstanceOf(IllegalStateRuntimeException.class);
    }

    @Test
    void autoStartIsOnUntilSwitchedOff() {
        JMSContext context = AqueductJMSContext.create(classic.connection, JMSContext.AUTO_ACKNOWLEDGE);
        assertThat(context.getAutoStart()).isTrue();

        context.setAutoStart(false);

        assertThat(context.getAutoStart()).isFalse();
    }
}
