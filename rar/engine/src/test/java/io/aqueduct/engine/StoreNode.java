package io.aqueduct.engine;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.QueueSession;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A second node: an engine in a JVM of its own on the shared test store, driven by
 * {@link MultiNodeTest}. It prints what it receives, one line per message, to standard output.
 *
 * <pre>
 * move QUEUE producers messagesPerProducer consumers   produce and consume until the queue stays empty
 * consume QUEUE waitSeconds                             one blocking dequeue, then exit
 * hold QUEUE locked removed                             dequeue LOCKED and REMOVE messages, never commit, wait to be killed
 * idle QUEUE                                            only run (its time manager), until killed
 * </pre>
 */
public final class StoreNode {
    private StoreNode() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try (AqueductEngine engine = MultiNodeTest.engine()) {
            String queue = args[1];
            switch (args[0]) {
                case "move" -> move(engine, queue, Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                        "B", out);
                case "consume" -> {
                    try (QueueSession s = engine.openSession()) {
                        Message m = s.dequeue(queue, DequeueOptions.create().waitSeconds(Long.parseLong(args[2])));
                        s.commit();
                        out.println("RECEIVED " + m.text());
                    }
                }
                case "hold" -> {
                    QueueSession s = engine.openSession();
                    for (int i = 0; i < Integer.parseInt(args[2]); i++) {
                        out.println("LOCKED " + s.dequeue(queue, DequeueOptions.create().mode(DequeueMode.LOCKED)
                                .waitSeconds(DequeueOptions.NO_WAIT)).text());
                    }
                    for (int i = 0; i < Integer.parseInt(args[3]); i++) {
                        out.println("REMOVED " + s.dequeue(queue, DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT)).text());
                    }
                    out.println("HOLDING");
                    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine(); // until killed
                }
                case "idle" -> {
                    out.println("IDLE"); // its time manager runs until the node is killed
                    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
                }
                default -> throw new IllegalArgumentException(args[0]);
            }
            out.println("DONE");
        }
    }

    /**
     * Producers enqueue (committing each message) while consumers REMOVE (committing each); a
     * consumer stops when the producers are done and a 3 s wait brings nothing. Received payloads
     * are printed (and returned).
     */
    static List<String> move(AqueductEngine engine, String queue, int producers, int perProducer, int consumers, String node,
            PrintStream out) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(producers + consumers);
        try {
            List<Future<?>> producing = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                String name = node + p;
                producing.add(pool.submit(() -> {
                    try (QueueSession s = engine.openSession()) {
                        for (int i = 0; i < perProducer; i++) {
                            s.enqueue(queue, null, Message.of(name + "-" + i));
                            s.commit();
                        }
                    }
                    return null;
                }));
            }
            List<Future<List<String>>> consuming = new ArrayList<>();
            for (int c = 0; c < consumers; c++) {
                consuming.add(pool.submit(() -> {
                    List<String> got = new ArrayList<>();
                    try (QueueSession s = engine.openSession()) {
                        while (true) {
                            try {
                                String text = s.dequeue(queue, DequeueOptions.create().waitSeconds(3)).text();
                                s.commit();
                                got.add(text);
                                if (out != null) {
                                    out.println("RECEIVED " + text);
                                }
                            } catch (AqException e) {
                                if (e.errorCode() != AqError.NO_MESSAGE) {
                                    throw e;
                                }
                                s.rollback();
                                if (producing.stream().allMatch(Future::isDone)) {
                                    return got;
                                }
                            }
                        }
                    }
                }));
            }
            for (Future<?> f : producing) {
                f.get();
            }
            List<String> all = new ArrayList<>();
            for (Future<List<String>> f : consuming) {
                all.addAll(f.get());
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }
}
