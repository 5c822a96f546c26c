package io.aqueduct.it.probe;

import io.aqueduct.api.AqMessageListener;
import io.aqueduct.api.Message;

/**
 * Not an MDB here (no annotation): the bad-configuration tests deploy it in an EAR of its own with
 * an ejb-jar.xml that gives it a wrong activation config, and expect the deployment to fail.
 */
public class BadConfigMdb implements AqMessageListener {
    @Override
    public void onMessage(Message message) {
        throw new IllegalStateException("never delivered");
    }
}
