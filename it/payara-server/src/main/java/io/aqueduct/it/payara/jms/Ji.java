package io.aqueduct.it.payara.jms;

/** Names shared by the JMS injection application (the module's jms WAR) and JmsInjectionIT. */
public final class Ji {
    /** The adapter deployed standalone ({@code asadmin deploy --name aqueduct-rar}). */
    public static final String RA = "aqueduct-rar";
    /** The server-wide connector resource, connection definition jakarta.jms.ConnectionFactory (asadmin). */
    public static final String FACTORY = "jms/JiFactory";
    /** The server-wide admin object (AdministeredQueue, name = {@link #AQ_QUEUE}). */
    public static final String QUEUE = "jms/JiQueue";
    /** An application-scoped factory of the same adapter, declared with @JMSConnectionFactoryDefinition (as it/probe's). */
    public static final String DEFINED_FACTORY = "java:app/jms/JiDefinedFactory";
    public static final String AQ_QUEUE = "JI_Q";
    /** The adapter's queue definitions (resource adapter config, before the adapter is deployed). */
    public static final String QUEUE_DEFINITIONS = "table JI_QTAB payload=RAW sort=priority,enq_time; queue " + AQ_QUEUE
            + " table=JI_QTAB";
    /** The control: a Payara (OpenMQ) queue, sent to with the platform's default connection factory. */
    public static final String OPENMQ_QUEUE = "jms/JiOpenMqQueue";
    public static final String OPENMQ_PHYSICAL = "JiOpenMqQ";

    private Ji() {
    }
}
