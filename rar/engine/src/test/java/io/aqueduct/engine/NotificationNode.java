package io.aqueduct.engine;

import io.aqueduct.api.Message;
import io.aqueduct.api.QueueSession;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The JVM {@link NotificationsCrashTest} kills: opens the store, enqueues one message into a queue
 * with a RELIABLE registration whose listener nobody binds here, commits, writes the message id to
 * the marker file and waits to be killed.
 */
public final class NotificationNode {
    private NotificationNode() {
    }

    public static void main(String[] args) throws Exception {
        String store = args[0];
        Path marker = Path.of(args[1]);
        AqueductEngine engine = CrashRecoveryTest.engine(store);
        try (QueueSession s = engine.openSession()) {
            String id = s.enqueue(NotificationsCrashTest.Q, Message.of("before the kill")).toString();
            s.commit();
            Files.writeString(marker.resolveSibling(marker.getFileName() + ".tmp"), id);
            Files.move(marker.resolveSibling(marker.getFileName() + ".tmp"), marker);
        }
        // the test kills this JVM now: the engine is never closed
        Thread.sleep(Long.MAX_VALUE);
    }
}
