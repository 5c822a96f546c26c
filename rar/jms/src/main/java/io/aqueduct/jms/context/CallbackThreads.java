package io.aqueduct.jms.context;

/**
 * Which context's callback, if any, the current thread is running. A context's close waits for
 * its listeners and its pending completion callbacks, so a callback that closes (or stops,
 * commits, rolls back) its own context would wait for itself: the specification requires an
 * {@code IllegalStateRuntimeException} instead, and this is how a context recognises the case.
 */
final class CallbackThreads {
    private static final ThreadLocal<AqueductJMSContext> MESSAGE_LISTENER = new ThreadLocal<>();
    private static final ThreadLocal<AqueductJMSContext> COMPLETION_LISTENER = new ThreadLocal<>();

    private CallbackThreads() {
    }

    /** Runs {@code r} as a MessageListener of {@code context}; restores what was there before (a nested send's callback). */
    static void asMessageListener(AqueductJMSContext context, Runnable r) {
        run(MESSAGE_LISTENER, context, r);
    }

    static void asCompletionListener(AqueductJMSContext context, Runnable r) {
        run(COMPLETION_LISTENER, context, r);
    }

    static AqueductJMSContext messageListenerContext() {
        return MESSAGE_LISTENER.get();
    }

    static AqueductJMSContext completionListenerContext() {
        return COMPLETION_LISTENER.get();
    }

    private static void run(ThreadLocal<AqueductJMSContext> slot, AqueductJMSContext context, Runnable r) {
        AqueductJMSContext before = slot.get();
        slot.set(context);
        try {
            r.run();
        } finally {
            if (before == null) {
                slot.remove();
            } else {
                slot.set(before);
            }
        }
    }
}
