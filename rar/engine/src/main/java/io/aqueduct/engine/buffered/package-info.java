/**
 * AQ's buffered messaging: messages enqueued with delivery mode BUFFERED live in the memory of the
 * engine that enqueued them, in their queue's order, outside any transaction, and are lost when it
 * stops (docs/buffered.md). {@link io.aqueduct.engine.buffered.BufferedMessages} holds them for the
 * whole engine under one memory limit; sessions enqueue and dequeue through it, the time manager
 * drives their delays and expirations, the administration shows them (V$BUFFERED_QUEUES).
 */
package io.aqueduct.engine.buffered;
