package io.aqueduct.jms.context;

import jakarta.jms.Connection;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.JMSException;

/**
 * The connection the contexts made by {@code createContext(int)} share with the first one: it is
 * closed when the last of them closes (JMSContext.close: "If there are no other active (not
 * closed) JMSContext objects using the underlying connection then this method also closes the
 * underlying connection").
 */
final class SharedConnection {
    private final Connection connection;
    private int users = 1;

    SharedConnection(Connection connection) {
        this.connection = connection;
    }

    Connection connection() {
        return connection;
    }

    /** One more context uses the connection. */
    synchronized void acquire() {
        if (users == 0) {
            throw new IllegalStateRuntimeException("The JMSContext's connection is closed.");
        }
        users++;
    }

    /** A context is done with the connection; the last one closes it. */
    void release() throws JMSException {
        boolean last;
        synchronized (this) {
            last = users > 0 && --users == 0;
        }
        if (last) {
            connection.close();
        }
    }

    synchronized int users() {
        return users;
    }
}
