/** JMS destinations naming AQ queues: Queue = single-consumer queue, Topic = multi-consumer queue. */
package io.aqueduct.jms.destination;
