package io.aqueduct.it.probe;

import io.aqueduct.api.AqMessageListener;
import io.aqueduct.api.Message;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/** Throws on the first N attempts of a message whose text is "fail=N" ("fail=always": every attempt). */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = ProbeQueues.RA),
        @ActivationConfigProperty(propertyName = "queueName", propertyValue = ProbeQueues.FLAKY),
        @ActivationConfigProperty(propertyName = "maxSessions", propertyValue = "2")
})
public class FlakyMdb implements AqMessageListener {
    @Override
    public void onMessage(Message message) {
        int attempt = Recorder.attempt(message.id().toString());
        if (failsOn(message.text(), attempt)) {
            throw new IllegalStateException("probe failure on attempt " + attempt + " of " + message.id());
        }
        Recorder.delivered(ProbeQueues.FLAKY, message.id().toString());
    }

    static boolean failsOn(String text, int attempt) {
        if (text == null || !text.startsWith("fail=")) {
            return false;
        }
        String n = text.substring(5);
        return n.equals("always") || attempt <= Integer.parseInt(n);
    }
}
