package io.aqueduct.jms.client;

import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.TransactionInProgressException;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class XaSessionTest {
    private JmsStore store;
    private XAConnection connection;
    private Queue queue;

    @BeforeEach
    void open() throws Exception {
        store = JmsStore.open();
        queue = store.queue("PAYMENTS");
        connection = store.xaFactory().createXAConnection();
        connection.start();
    }

    @AfterEach
    void close() throws Exception {
        if (connection != null) {
            connection.close();
        }
        if (store != null) {
            store.close();
        }
    }

    private static Xid xid(String id) {
        byte[] gtrid = id.getBytes(StandardCharsets.UTF_8);
        return new Xid() {
            @Override
            public int getFormatId() {
                return 4711;
            }

            @Override
            public byte[] getGlobalTransactionId() {
                return gtrid;
            }

            @Override
            public byte[] getBranchQualifier() {
                return new byte[] {1};
            }
        };
    }

    private Message receiveElsewhere(long timeout) throws Exception {
        try (Session s = connection.createSession()) {
            return s.createConsumer(queue).receive(timeout);
        }
    }

    @Test
    void aSendInsideAGlobalTransactionIsVisibleOnlyAfterTwoPhaseCommit() throws Exception {
        XASession xa = connection.createXASession();
        XAResource r = xa.getXAResource();
        Xid x = xid("send-1");
        r.start(x, XAResource.TMNOFLAGS);
        xa.createProducer(queue).send(xa.createTextMessage("paid"));
        r.end(x, XAResource.TMSUCCESS);
        assertThat(receiveElsewhere(300)).isNull();
        assertThat(r.prepare(x)).isEqualTo(XAResource.XA_OK);
        r.commit(x, false);
        assertThat(((TextMessage) receiveElsewhere(5_000)).getText()).isEqualTo("paid");
    }

    @Test
    void aReceiveInsideARolledBackGlobalTransactionLeavesTheMessage() throws Exception {
        try (Session s = connection.createSession()) {
            s.createProducer(queue).send(s.createTextMessage("kept"));
        }
        XASession xa = connection.createXASession();
        XAResource r = xa.getXAResource();
        Xid x = xid("receive-1");
        r.start(x, XAResource.TMNOFLAGS);
        MessageConsumer c = xa.createConsumer(queue);
        assertThat(((TextMessage) c.receive(5_000)).getText()).isEqualTo("kept");
        r.end(x, XAResource.TMSUCCESS);
        r.rollback(x);
        Message again = receiveElsewhere(5_000);
        assertThat(((TextMessage) again).getText()).isEqualTo("kept");
        assertThat(again.getJMSRedelivered()).isTrue();
    }

    @Test
    void anXaSessionIsTransactedAndRefusesLocalCommitAndRollback() throws Exception {
        XASession xa = connection.createXASession();
        assertThat(xa.getTransacted()).isTrue();
        assertThat(xa.getSession()).isSameAs(xa);
        assertThatThrownBy(xa::commit).isInstanceOf(TransactionInProgressException.class);
        assertThatThrownBy(xa::rollback).isInstanceOf(TransactionInProgressException.class);
    }

    @Test
    void outsideAGlobalTransactionAnXaSessionSendsAtOnce() throws Exception {
        XASession xa = connection.createXASession();
        xa.createProducer(queue).send(xa.createTextMessage("now"));
        assertThat(((TextMessage) receiveElsewhere(5_000)).getText()).isEqualTo("now");
    }
}
