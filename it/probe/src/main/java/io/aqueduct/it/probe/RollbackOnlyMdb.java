package io.aqueduct.it.probe;

import io.aqueduct.api.AqMessageListener;
import io.aqueduct.api.Message;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.MessageDrivenContext;

/** Marks the delivery transaction rollback-only (no exception) on the first N attempts of "fail=N". */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = ProbeQueues.RA),
        @ActivationConfigProperty(propertyName = "queueName", propertyValue = ProbeQueues.ROLLBACK_ONLY)
})
public class RollbackOnlyMdb implements AqMessageListener {
    @Resource
    private MessageDrivenContext context;

    @Override
    public void onMessage(Message message) {
        int attempt = Recorder.attempt(message.id().toString());
        if (FlakyMdb.failsOn(message.text(), attempt)) {
            context.setRollbackOnly();
            return;
        }
        Recorder.delivered(ProbeQueues.ROLLBACK_ONLY, message.id().toString());
    }
}
