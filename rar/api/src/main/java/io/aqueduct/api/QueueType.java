package io.aqueduct.api;

/** A normal queue, or an exception queue that receives expired and unserviceable messages. */
public enum QueueType {
    NORMAL,
    EXCEPTION
}
