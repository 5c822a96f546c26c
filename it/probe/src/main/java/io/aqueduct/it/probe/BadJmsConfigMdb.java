package io.aqueduct.it.probe;

import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * Not an MDB here (no annotation): the bad-configuration tests deploy it in an EAR of its own with
 * an ejb-jar.xml that gives it a wrong JMS activation config, and expect the deployment to fail.
 */
public class BadJmsConfigMdb implements MessageListener {
    @Override
    public void onMessage(Message message) {
        throw new IllegalStateException("never delivered");
    }
}
