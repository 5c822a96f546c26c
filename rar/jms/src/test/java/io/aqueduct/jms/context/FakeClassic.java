package io.aqueduct.jms.context;

import io.aqueduct.jms.message.JmsMessage;
import io.aqueduct.jms.message.JmsTextMessage;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.Session;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A classic Connection and its Sessions that record what the context asks of them: enough for
 * the context's own rules (session modes, sharing, closing), which need no queue.
 */
final class FakeClassic {
    /** "createSession(2)", "setClientID(c)", "close()", "session.close()", ... in call order. */
    final List<String> calls = new CopyOnWriteArrayList<>();
    private volatile boolean connectionClosed;
    private volatile boolean sessionCreated;

    final Connection connection = (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                calls.add(method.getName() + (args == null ? "()" : "(" + args[0] + ")"));
                if (connectionClosed && !method.getName().equals("close")) {
                    throw new IllegalStateException("the connection is closed");
                }
                switch (method.getName()) {
                    case "close" -> connectionClosed = true;
                    case "setClientID" -> {
                        // as the classic javadoc says: only before any other action
                        if (sessionCreated) {
                            throw new IllegalStateException("setClientID after a session was created");
                        }
                    }
                    case "createSession" -> {
                        sessionCreated = true;
                        return session();
                    }
                    case "getClientID" -> {
                        return "client-1";
                    }
                    default -> {
                    }
                }
                return null;
            });

    private Session session() {
        return (Session) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Session.class},
                (proxy, method, args) -> {
                    calls.add("session." + method.getName() + "()");
                    return switch (method.getName()) {
                        case "createTextMessage" -> new JmsTextMessage(args == null ? null : (String) args[0]);
                        case "createMessage" -> new JmsMessage();
                        case "commit" -> throw new IllegalStateException("the session is not transacted");
                        default -> null;
                    };
                });
    }

    boolean connectionClosed() {
        return connectionClosed;
    }
}
