package io.aqueduct.bench.aqueduct;

import io.aqueduct.api.Agent;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import io.aqueduct.bench.Bench;
import io.aqueduct.engine.AqueductEngine;
import io.aqueduct.engine.expression.Expression;
import io.aqueduct.engine.expression.MessageSnapshot;
import io.aqueduct.engine.expression.MessageView;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code aqueduct/derby/subscribers=<n>}: enqueue into a multi-consumer queue (JSON payloads of
 * 1 KiB) with n = 1, 10, 100 rule-based subscribers {@code S<i>}, rule
 * {@code tab.user_data.region = 'R<i>'}; message k has region {@code R<k mod n>}, so each message
 * matches exactly one subscriber. One thread, one commit per message, durable Derby, for one phase;
 * the counts run in the order 1 10 100, then 100 10 1, ... so that a drifting disk hits all alike.
 *
 * <p>{@code us_per_rule}: the cost of testing one more rule against a message, measured in process
 * on the same rules ({@link Expression#test}) over {@link MessageSnapshot}s built as the engine
 * builds them at enqueue (one per message, payload parsed once and cached): all messages' payloads
 * parsed first, then every rule tested against every message, total time / (messages × rules).
 * {@code us_parse} is the once-per-message part (build the view, parse the JSON payload) and
 * {@code us_route} the routing of one message as enqueue does it (fresh view + all n rules), about
 * {@code us_parse + n × us_per_rule}. Printed:
 *
 * <pre>
 * BENCH aqueduct/derby/subscribers=&lt;n&gt; enq_per_s=&lt;x&gt; us_per_rule=&lt;y&gt; us_route=.. us_parse=.. enq_n=.. ...
 * </pre>
 */
public final class SubscribersBench implements Bench.Extra {
    static final int[] COUNTS = {1, 10, 100};
    static final String QUEUE_TABLE = "BENCH_MC_QT";
    static final String QUEUE = "BENCH_MC_Q";
    static final int PAYLOAD_BYTES = 1024;
    /** Messages of the rule microbench (distinct payloads, as many regions as subscribers). */
    static final int MICRO_MESSAGES = 2000;

    @Override
    public List<String> scenarios() {
        List<String> out = new ArrayList<>();
        for (int n : COUNTS) {
            out.add(key(n));
        }
        return out;
    }

    static String key(int n) {
        return "aqueduct/derby/subscribers=" + n;
    }

    static String rule(int i) {
        return "tab.user_data.region = 'R" + i + "'";
    }

    /** A 1 KiB JSON order: {"orderno":k,"region":"R<k mod n>","customer":...,"pad":"xx.."}. */
    static String payload(long k, int n) {
        String head = "{\"orderno\":" + k + ",\"region\":\"R" + (k % n) + "\",\"customer\":{\"name\":\"customer " + k
                + "\",\"country\":\"US\"},\"items\":[{\"isbn\":\"0-" + k + "\",\"quantity\":1}],\"pad\":\"";
        String tail = "\"}";
        int pad = PAYLOAD_BYTES - head.getBytes(StandardCharsets.UTF_8).length - tail.length();
        return head + "x".repeat(Math.max(0, pad)) + tail;
    }

    @Override
    public boolean run(List<String> chosen, Path base, double phaseSeconds, int rounds) throws Exception {
        List<Integer> counts = new ArrayList<>();
        for (int n : COUNTS) {
            if (chosen.contains(key(n))) {
                counts.add(n);
            }
        }
        boolean failed = false;
        if (Boolean.parseBoolean(System.getProperty("bench.warmup", "true"))) {
            // the engine's enqueue path and the rules warmed up (JIT) before anything is timed
            Path dir = Files.createDirectory(base.resolve("subscribers-warmup"));
            try {
                enqueuePhase(dir, COUNTS[COUNTS.length - 1], Math.max(3, phaseSeconds));
                ruleCost(COUNTS[COUNTS.length - 1]);
            } finally {
                Bench.deleteTree(dir);
            }
        }
        Map<Integer, List<double[]>> runs = new LinkedHashMap<>(); // {messages, seconds} per round
        for (int round = 0; round < rounds; round++) {
            List<Integer> order = new ArrayList<>(counts);
            if (round % 2 == 1) {
                java.util.Collections.reverse(order);
            }
            for (int n : order) {
                Path dir = Files.createDirectory(base.resolve("subscribers-" + n + "-r" + (round + 1)));
                try {
                    double fsync = Bench.fsyncRate(base);
                    double[] r = enqueuePhase(dir, n, phaseSeconds);
                    runs.computeIfAbsent(n, k -> new ArrayList<>()).add(r);
                    System.out.printf(Locale.ROOT, "# run %s round=%d enq_per_s=%.0f enq_n=%.0f setup_s=%.1f fsync_per_s=%.0f"
                            + " fsync_after=%.0f%n", key(n), round + 1, r[0] / r[1], r[0], r[2], fsync, Bench.fsyncRate(base));
                } catch (Exception e) {
                    failed = true;
                    System.out.println("# run " + key(n) + " round=" + (round + 1) + " FAILED: " + e);
                    e.printStackTrace(System.out);
                } finally {
                    if (!Boolean.getBoolean("bench.keep")) {
                        Bench.deleteTree(dir);
                    }
                }
                System.out.flush();
            }
        }
        double baseline = 0;
        for (int n : counts) {
            List<double[]> rs = runs.getOrDefault(n, List.of());
            double msgs = rs.stream().mapToDouble(r -> r[0]).sum();
            double secs = rs.stream().mapToDouble(r -> r[1]).sum();
            double enq = secs > 0 ? msgs / secs : 0;
            double[] micro = ruleCost(n);
            if (n == counts.get(0)) {
                baseline = enq;
            }
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                    "BENCH %s enq_per_s=%.0f us_per_rule=%.3f us_route=%.2f us_parse=%.2f enq_n=%.0f rounds=%d", key(n), enq,
                    micro[0], micro[1], micro[2], msgs, rs.size()));
            if (n != counts.get(0) && baseline > 0) {
                line.append(String.format(Locale.ROOT, " enq_vs_%d=%.2f", counts.get(0), enq / baseline));
            }
            line.append(" enq_rounds=").append(rs.stream().map(r -> String.format(Locale.ROOT, "%.0f", r[0] / r[1]))
                    .collect(Collectors.joining(",")));
            System.out.println(line);
        }
        return !failed;
    }

    /**
     * A fresh durable engine in {@code dir} with n subscribers; one thread enqueues, committing each
     * message, for {@code seconds}. Returns {messages, seconds, setup seconds}. Then checks that a
     * subscriber got its messages (and only those): S0 dequeues one message, whose region is R0.
     */
    private static double[] enqueuePhase(Path dir, int n, double seconds) {
        long s0 = System.nanoTime();
        try (AqueductEngine engine = AqueductEngine.builder().derbyDirectory(dir.resolve("db")).start()) {
            QueueAdmin admin = engine.admin();
            admin.createQueueTable(QUEUE_TABLE, QueueTableProperties.create().payloadType(PayloadType.JSON)
                    .sortOrder(SortOrder.ENQ_TIME).multipleConsumers(true));
            admin.createQueue(QUEUE, QUEUE_TABLE, QueueProperties.create());
            admin.startQueue(QUEUE, true, true);
            for (int i = 0; i < n; i++) {
                admin.addSubscriber(QUEUE, Agent.named("S" + i), rule(i));
            }
            double setup = (System.nanoTime() - s0) / 1e9;
            long count = 0;
            long t0;
            long end;
            try (QueueSession s = engine.openSession()) {
                t0 = System.nanoTime();
                long deadline = t0 + (long) (seconds * 1e9);
                do {
                    try {
                        s.enqueue(QUEUE, Message.of(payload(count, n), MessageProperties.create()));
                        s.commit();
                    } catch (RuntimeException e) {
                        s.rollback();
                        throw e;
                    }
                    count++;
                } while (System.nanoTime() < deadline);
                end = System.nanoTime();
                Message m = s.dequeue(QUEUE, DequeueOptions.create().consumerName("S0").waitSeconds(DequeueOptions.NO_WAIT));
                s.commit();
                if (!m.text().contains("\"region\":\"R0\"")) {
                    throw new IllegalStateException("subscriber S0 got a message of another region: "
                            + m.text().substring(0, 60));
                }
            }
            return new double[] {count, (end - t0) / 1e9, setup};
        }
    }

    /** {us per rule, us to route one message (fresh view + n rules), us to build a view and parse its payload}. */
    static double[] ruleCost(int n) {
        List<Expression> rules = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            rules.add(Expression.parse(rule(i)));
        }
        String[] texts = new String[MICRO_MESSAGES];
        for (int k = 0; k < texts.length; k++) {
            texts[k] = payload(k, n);
        }
        Instant now = Instant.now();
        long matched = 0;
        double bestRule = Double.MAX_VALUE;
        double bestRoute = Double.MAX_VALUE;
        double bestParse = Double.MAX_VALUE;
        for (int rep = 0; rep < 12; rep++) { // the first reps warm the JIT up; the best of all is taken
            // per message: build the view and parse the payload (what enqueue pays once, whatever n)
            MessageView[] views = new MessageView[texts.length];
            long t = System.nanoTime();
            for (int k = 0; k < texts.length; k++) {
                views[k] = view(texts[k], now);
                if (views[k].payload().json() == null) {
                    throw new IllegalStateException("payload is not JSON");
                }
            }
            bestParse = Math.min(bestParse, (System.nanoTime() - t) / 1e3 / texts.length);

            // per rule: every rule against every (parsed) message
            t = System.nanoTime();
            for (MessageView v : views) {
                for (Expression r : rules) {
                    if (r.test(v)) {
                        matched++;
                    }
                }
            }
            bestRule = Math.min(bestRule, (System.nanoTime() - t) / 1e3 / ((double) texts.length * n));

            // per message as enqueue routes it: a fresh view, all rules
            t = System.nanoTime();
            for (String text : texts) {
                MessageView v = view(text, now);
                for (Expression r : rules) {
                    if (r.test(v)) {
                        matched++;
                    }
                }
            }
            bestRoute = Math.min(bestRoute, (System.nanoTime() - t) / 1e3 / texts.length);
        }
        if (matched != 2L * 12 * texts.length) { // each message matches exactly one rule
            throw new IllegalStateException("rules matched " + matched + " times, expected " + 2L * 12 * texts.length);
        }
        return new double[] {bestRule, bestRoute, bestParse};
    }

    /** The view the engine builds at enqueue for rule evaluation (Recipients.view). */
    private static MessageView view(String json, Instant now) {
        return MessageSnapshot.builder().priority(1).enqueueTime(now).payload(PayloadType.JSON, json).build();
    }
}
