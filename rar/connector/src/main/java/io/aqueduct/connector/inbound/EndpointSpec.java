package io.aqueduct.connector.inbound;

import io.aqueduct.engine.AqueductEngine;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;

/** An activation spec of this adapter: it knows what its MDB consumes and with how many sessions. */
public interface EndpointSpec extends ActivationSpec {
    /**
     * The source of the MDB's messages, checked against the store (the queue exists and fits, the
     * selector / condition parse): a ResourceException naming the property fails the deployment.
     */
    DeliverySource source(AqueductEngine engine, MessageEndpointFactory factory) throws ResourceException;

    /** Workers (queue sessions) delivering concurrently. */
    int sessions();

    /** The AQ user of the delivery sessions; null: the adapter's. */
    String sessionUser();
}
