package io.aqueduct.it.probe;

import io.aqueduct.api.AqMessageListener;
import io.aqueduct.api.Message;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/** The benchmark's consumers: one with one session, one with four. They only count. */
public final class BenchMdbs {
    private BenchMdbs() {
    }

    @MessageDriven(activationConfig = {
            @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = ProbeQueues.RA),
            @ActivationConfigProperty(propertyName = "queueName", propertyValue = ProbeQueues.BENCH1),
            @ActivationConfigProperty(propertyName = "maxSessions", propertyValue = "1")
    })
    public static class One implements AqMessageListener {
        @Override
        public void onMessage(Message message) {
            Recorder.delivered(ProbeQueues.BENCH1, message.id().toString());
        }
    }

    @MessageDriven(activationConfig = {
            @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = ProbeQueues.RA),
            @ActivationConfigProperty(propertyName = "queueName", propertyValue = ProbeQueues.BENCH4),
            @ActivationConfigProperty(propertyName = "maxSessions", propertyValue = "4")
    })
    public static class Four implements AqMessageListener {
        @Override
        public void onMessage(Message message) {
            Recorder.delivered(ProbeQueues.BENCH4, message.id().toString());
        }
    }
}
