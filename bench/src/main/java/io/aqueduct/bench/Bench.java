package io.aqueduct.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The benchmark harness. {@code Bench [filter]}: runs every scenario {@code <system>/<store>/<case>}
 * the filter (a regex, searched for; a plain substring works) matches, and prints
 *
 * <pre>
 * BENCH &lt;system&gt;/&lt;store&gt;/&lt;case&gt; enq_per_s=&lt;x&gt; deq_per_s=&lt;y&gt; [key=value ...]
 * BENCH ratio/&lt;store&gt;/&lt;case&gt; enq=&lt;aqueduct/raw&gt; deq=&lt;aqueduct/raw&gt;
 * </pre>
 *
 * The stores ({@link BenchStore}) are {@code derby} (embedded, durable), {@code postgres} and
 * {@code mariadb} (servers, configured by BENCH_POSTGRES_URL etc.); a server that cannot be reached
 * gets a {@code BENCH-SKIP <store> ...} line and the run goes on without it.
 *
 * Each case runs {@code bench.rounds} times per system, the two systems back to back in the order
 * A B, B A, ... so that a drift of the disk's fsync rate hits both alike; the BENCH line of a system
 * is its total messages over its total seconds, and lines starting with {@code #} give each round.
 * Every run gets a fresh Derby database in its own temporary directory, deleted afterwards; on a
 * server, every run first drops what the system left in the benchmark's schema / database.
 *
 * <p>System properties: {@code bench.seconds} (length of a timed phase, default 4),
 * {@code bench.rounds} (default 3), {@code bench.serverRounds} (rounds on PostgreSQL / MariaDB,
 * default 2 or bench.rounds if fewer), {@code bench.maxMessages} (cap per enqueue phase, default
 * 200000), {@code bench.drainSeconds} (how long 2p2c consumers may go on after the producers stop,
 * default 20; the untimed drain after them as long again), {@code bench.dir} (where the temporary directories go, default java.io.tmpdir),
 * {@code bench.keep} (keep them), {@code bench.warmup} (default true).
 */
public final class Bench {
    static final String AQUEDUCT_CLASS = "io.aqueduct.bench.aqueduct.AqueductSystem";
    /** Aqueduct through JMS (rar/jms): the system {@code aqueduct-jms}, compiled with the engine. */
    static final String JMS_CLASS = "io.aqueduct.bench.aqueduct.JmsSystem";
    /**
     * The filter {@code jms} (bench/run jms): the JMS cases and the native Aqueduct cases beside
     * them, which the {@code ratio-jms} lines compare with (not the raw side, not the extras).
     */
    static final String JMS_FILTER = "^aqueduct(-jms)?/[a-z]+/(commit-each|batch-100)";
    /**
     * The filter {@code buffered} (bench/run buffered): buffered messages (delivery mode BUFFERED, in the
     * engine's memory: the system {@code aqueduct-buffered}) beside persistent ones, one message per call,
     * 1p1c and 4p4c (AQ has no array operations on buffered messages, so no batch case), and the wake-up of a
     * blocked buffered dequeue (BufferedLatencyBench).
     */
    static final String BUFFERED_FILTER = "^aqueduct(-buffered)?/[a-z]+/commit-each/(1p1c|4p4c)|^aqueduct-buffered/derby/wake/";
    /**
     * The filter {@code propagation} (bench/run propagation): AQ propagation and the plain dequeue +
     * enqueue loop beside it, which the {@code ratio-propagation} lines compare with.
     */
    static final String PROPAGATION_FILTER = "^(aqueduct-propagation|plain-move)/";
    /**
     * Scenarios that do not fit the enqueue / dequeue mould of {@link QueueSystem}: they print their
     * own BENCH lines. Loaded by name (the aqueduct package is compiled only with the engine).
     */
    static final List<String> EXTRA_CLASSES = List.of("io.aqueduct.bench.aqueduct.SubscribersBench",
            "io.aqueduct.bench.aqueduct.NodesBench", "io.aqueduct.bench.aqueduct.PropagationBench",
            "io.aqueduct.bench.aqueduct.DepthBench", "io.aqueduct.bench.aqueduct.LatenessBench",
            "io.aqueduct.bench.aqueduct.LatencyBench", "io.aqueduct.bench.aqueduct.BufferedLatencyBench",
            "io.aqueduct.bench.aqueduct.StatsBench");
    static final int BATCH = 100;

    private final double phaseSeconds = Double.parseDouble(System.getProperty("bench.seconds", "4"));
    private final int rounds = Integer.getInteger("bench.rounds", 3);
    /** Rounds on the servers (PostgreSQL, MariaDB): {@link #serverRounds}. */
    private final int serverRounds = serverRounds(rounds);
    private final int maxMessages = Integer.getInteger("bench.maxMessages", 200_000);
    private final double drainSeconds = Double.parseDouble(System.getProperty("bench.drainSeconds", "20"));
    private final long phaseNanos = (long) (phaseSeconds * 1e9);
    private Path base;
    private boolean failed;
    private final java.util.Set<String> tracesShown = new java.util.HashSet<>();
    private boolean incorrect;
    /** {enq_per_s, deq_per_s} of each system's BENCH line so far, by key (for the extras' comparisons). */
    private static final Map<String, double[]> TOTALS = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * A system; {@code transactedFactory} (null: none) makes it for the cases that commit each
     * message through a transacted session, a distinction only JMS has.
     */
    record SystemDef(String name, Supplier<QueueSystem> factory, Supplier<QueueSystem> transactedFactory) {
        SystemDef(String name, Supplier<QueueSystem> factory) {
            this(name, factory, null);
        }

        boolean runs(CaseDef c) {
            return !c.transactedEach() || transactedFactory != null;
        }

        Supplier<QueueSystem> factoryFor(CaseDef c) {
            return c.transactedEach() ? transactedFactory : factory;
        }
    }

    interface CaseBody {
        Result run(QueueSystem system) throws Exception;
    }

    /** {@code transactedEach}: the JMS-only variant of a case whose sessions are transacted. */
    record CaseDef(String name, CaseBody body, boolean transactedEach) {
        CaseDef(String name, CaseBody body) {
            this(name, body, false);
        }
    }

    /** A scenario with a BENCH line of its own (see {@link #EXTRA_CLASSES}). */
    public interface Extra {
        /** Its keys {@code <system>/<store>/<case>}, matched against the filter. */
        List<String> scenarios();

        /**
         * Runs the chosen scenarios (a subset of {@link #scenarios()}), each in a fresh directory
         * under {@code base}, printing {@code # run} and BENCH lines; false when a run failed.
         */
        boolean run(List<String> chosen, Path base, double phaseSeconds, int rounds) throws Exception;

        /**
         * A word the filter must contain for this scenario to run (null: any matching filter, the
         * empty one too): keeps long cases out of a run of everything.
         */
        default String optInWord() {
            return null;
        }

        /** After {@link #run}: whether a run lost, duplicated or invented a message (exit code 3). */
        default boolean incorrect() {
            return false;
        }
    }

    /**
     * {enq_per_s, deq_per_s} of the BENCH line {@code key} ({@code <system>/<store>/<case>}) printed
     * earlier in this run, or null.
     */
    public static double[] totals(String key) {
        return TOTALS.get(key);
    }

    /** One run of one case on one system. */
    static final class Result {
        boolean failed;
        long enqN;
        double enqSecs;
        long deqN;
        double deqSecs;
        /** Summed over rounds into the BENCH line. */
        final Map<String, Long> counts = new LinkedHashMap<>();
        /** Shown on the round's line only. */
        final Map<String, String> info = new LinkedHashMap<>();

        double enqRate() {
            return enqSecs > 0 ? enqN / enqSecs : 0;
        }

        double deqRate() {
            return deqSecs > 0 ? deqN / deqSecs : 0;
        }
    }

    public static void main(String[] args) throws Exception {
        String filter = args.length > 0 ? args[0] : "";
        int code = new Bench().run(filter.equals("jms") ? JMS_FILTER : filter.equals("propagation") ? PROPAGATION_FILTER
                : filter.equals("buffered") ? BUFFERED_FILTER : filter);
        System.exit(code);
    }

    int run(String filterText) throws Exception {
        long started = System.nanoTime();
        // Short lock timeouts for a queue store (defaults: 60 s wait, 20 s deadlock check); set before Derby boots.
        setDefault("derby.locks.waitTimeout", "5");
        setDefault("derby.locks.deadlockTimeout", "2");
        String durability = System.getProperty("derby.system.durability");
        if (durability != null) {
            System.out.println("# derby.system.durability=" + durability + " is set: this harness measures durable commits only.");
            return 2;
        }
        Pattern filter = compile(filterText);
        Path parent = Path.of(System.getProperty("bench.dir", System.getProperty("java.io.tmpdir")));
        Files.createDirectories(parent);
        base = Files.createTempDirectory(parent, "aqueduct-bench-");
        setDefault("derby.system.home", base.toString()); // derby.log goes there, not into the work tree

        List<SystemDef> systems = new ArrayList<>();
        Supplier<QueueSystem> aqueduct = aqueductFactory(false);
        if (aqueduct != null) {
            systems.add(new SystemDef("aqueduct", aqueduct));
        } else if (filter.matcher("aqueduct/").find() || filterText.isEmpty()) {
            System.out.println("# aqueduct: " + AQUEDUCT_CLASS + " is not on the class path (built without the engine): skipped");
        }
        SystemDef jms = jmsSystem();
        if (jms != null) {
            systems.add(jms);
        }
        // buffered messages only when asked for (bench/run buffered): a run of everything stays as it was
        boolean buffered = filterText.contains("buffered");
        Supplier<QueueSystem> bufferedAqueduct = buffered ? aqueductFactory(true) : null;
        if (bufferedAqueduct != null) {
            systems.add(new SystemDef("aqueduct-buffered", bufferedAqueduct));
        }
        systems.add(new SystemDef("raw-jdbc", RawJdbcSystem::new));

        List<CaseDef> cases = new ArrayList<>(List.of(
                new CaseDef("commit-each/1p1c", this::commitEach1p1c),
                new CaseDef("batch-100/1p1c", this::batch1p1c),
                new CaseDef("commit-each/2p2c", s -> concurrent(s, 2, 2)),
                // JMS: a transacted session committed after each send / receive (commit-each/1p1c is AUTO_ACKNOWLEDGE)
                new CaseDef("commit-each-tx/1p1c", this::commitEach1p1c, true)));
        if (buffered) {
            cases.add(new CaseDef("commit-each/4p4c", s -> concurrent(s, 4, 4)));
        }
        List<Extra> extras = new ArrayList<>();
        for (String name : EXTRA_CLASSES) {
            Extra extra = extra(name);
            if (extra != null) {
                extras.add(extra);
            }
        }

        System.out.printf(Locale.ROOT, "# aqueduct bench: stores=%s phase=%.1fs rounds=%d serverRounds=%d derby.locks.waitTimeout=%s"
                + " derby.locks.deadlockTimeout=%s dir=%s%n",
                BenchStore.all().stream().map(BenchStore::describe).collect(Collectors.joining(",")), phaseSeconds, rounds, serverRounds,
                System.getProperty("derby.locks.waitTimeout"), System.getProperty("derby.locks.deadlockTimeout"), base);

        System.out.println("# engine: " + engineJar());

        // The servers the filter needs: probed once, up front (BENCH-SKIP <store> when unreachable).
        for (BenchStore store : BenchStore.all()) {
            boolean wanted = cases.stream()
                    .anyMatch(c -> systems.stream().anyMatch(sys -> sys.runs(c) && filter.matcher(key(sys.name(), store, c.name())).find()))
                    || extras.stream().flatMap(x -> x.scenarios().stream())
                            .anyMatch(k -> k.contains("/" + store.name + "/") && filter.matcher(k).find());
            if (wanted) {
                store.available();
            }
        }

        boolean ranAny = false;
        boolean warmup = Boolean.parseBoolean(System.getProperty("bench.warmup", "true"));
        for (BenchStore store : BenchStore.all()) {
            boolean warmed = !warmup;
            for (CaseDef c : cases) {
                List<SystemDef> chosen = systems.stream()
                        .filter(s -> s.runs(c) && filter.matcher(key(s.name(), store, c.name())).find()).toList();
                if (chosen.isEmpty()) {
                    continue;
                }
                ranAny = true;
                if (!store.available()) {
                    continue; // BENCH-SKIP printed
                }
                if (!warmed) {
                    for (SystemDef sys : systems) {
                        boolean used = cases.stream().anyMatch(x -> sys.runs(x) && filter.matcher(key(sys.name(), store, x.name())).find());
                        if (used) {
                            warmup(sys, store);
                        }
                    }
                    warmed = true;
                }
                Map<String, List<Result>> results = new LinkedHashMap<>();
                for (int round = 0, n = store.shared() ? serverRounds : rounds; round < n; round++) {
                    List<SystemDef> order = new ArrayList<>(chosen);
                    if (round % 2 == 1) {
                        java.util.Collections.reverse(order); // A B, B A, ...: a drifting disk hits both alike
                    }
                    for (SystemDef sys : order) {
                        Result r = runOne(sys, store, c, round);
                        results.computeIfAbsent(sys.name(), k -> new ArrayList<>()).add(r);
                    }
                }
                report(c, store, chosen, results);
            }
        }
        for (Extra extra : extras) {
            String name = extra.getClass().getName();
            List<String> chosen = extra.scenarios().stream().filter(k -> filter.matcher(k).find()).toList();
            if (chosen.isEmpty() || (extra.optInWord() != null && !filterText.contains(extra.optInWord()))) {
                continue;
            }
            ranAny = true;
            try {
                if (!extra.run(chosen, base, phaseSeconds, rounds)) {
                    failed = true;
                }
            } catch (Exception e) {
                failed = true;
                System.out.println("# " + name + " FAILED: " + e);
                e.printStackTrace(System.out);
            }
            if (extra.incorrect()) {
                incorrect = true;
            }
            System.out.flush();
        }
        if (!ranAny) {
            System.out.println("# no scenario matches '" + filterText + "'");
        }
        System.out.printf(Locale.ROOT, "# total %.0f s%n", (System.nanoTime() - started) / 1e9);
        if (!Boolean.getBoolean("bench.keep")) {
            deleteTree(base);
        }
        return failed ? 1 : incorrect ? 3 : 0;
    }

    /** The engine jar on the class path, its size and time (which build of the engine a run measured). */
    private static String engineJar() {
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path p = Path.of(entry);
            if (p.getFileName() != null && p.getFileName().toString().startsWith("aqueduct-engine")) {
                try {
                    return p + " " + Files.size(p) + " bytes, " + Files.getLastModifiedTime(p);
                } catch (IOException e) {
                    return p + " (" + e + ")";
                }
            }
        }
        return "none on the class path";
    }

    /**
     * Rounds of a case on a server store: {@code bench.serverRounds}, by default 2 (A B, B A) or
     * {@code rounds} if that is fewer; keeps a run of all three stores near ten minutes.
     */
    public static int serverRounds(int rounds) {
        return Integer.getInteger("bench.serverRounds", Math.min(2, rounds));
    }

    private static void setDefault(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    private static Pattern compile(String text) {
        try {
            return Pattern.compile(text);
        } catch (PatternSyntaxException e) {
            return Pattern.compile(Pattern.quote(text));
        }
    }

    static String key(String system, BenchStore store, String caseName) {
        return system + "/" + store.name + "/" + caseName;
    }

    /** An extra scenario class, or null when it is not on the class path (built without the engine). */
    private static Extra extra(String name) {
        try {
            return (Extra) Class.forName(name).getDeclaredConstructor().newInstance();
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create " + name + ": " + e, e);
        }
    }

    /** The JMS system (plain and transacted-each), or null when it is not on the class path. */
    private static SystemDef jmsSystem() {
        Class<?> type;
        try {
            type = Class.forName(JMS_CLASS);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
        java.util.function.Function<Boolean, Supplier<QueueSystem>> make = transacted -> () -> {
            try {
                return (QueueSystem) type.getDeclaredConstructor(boolean.class).newInstance(transacted);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot create " + JMS_CLASS, e);
            }
        };
        return new SystemDef("aqueduct-jms", make.apply(false), make.apply(true));
    }

    /** Aqueduct, with buffered messages or persistent ones (AqueductSystem(buffered)); null when the engine is not on the class path. */
    private static Supplier<QueueSystem> aqueductFactory(boolean buffered) {
        Class<?> type;
        try {
            type = Class.forName(AQUEDUCT_CLASS);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
        return () -> {
            try {
                return (QueueSystem) type.getDeclaredConstructor(boolean.class).newInstance(buffered);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot create " + AQUEDUCT_CLASS + (buffered ? " (buffered)" : ""), e);
            }
        };
    }

    // ---------------------------------------------------------------- running and reporting

    private Result runOne(SystemDef sys, BenchStore store, CaseDef c, int round) {
        String key = key(sys.name(), store, c.name());
        double fsync = fsyncRate();
        Path dir = null;
        QueueSystem qs = null;
        try {
            dir = Files.createDirectory(base.resolve(sys.name() + "-" + store.name + "-" + c.name().replace('/', '-')
                    + "-r" + (round + 1)));
            qs = sys.factoryFor(c).get();
            long t0 = System.nanoTime();
            qs.open(store, dir);
            double setup = (System.nanoTime() - t0) / 1e9;
            Result r = c.body().run(qs);
            r.info.put("setup_s", String.format(Locale.ROOT, "%.1f", setup));
            r.info.put("fsync_per_s", String.format(Locale.ROOT, "%.0f", fsync));
            r.info.put("fsync_after", String.format(Locale.ROOT, "%.0f", fsyncRate()));
            System.out.println("# run " + key + " round=" + (round + 1) + " " + rates(r.enqRate(), r.deqRate())
                    + counts(r) + info(r));
            return r;
        } catch (Throwable e) {
            failed = true;
            System.out.println("# run " + key + " round=" + (round + 1) + " FAILED: " + e);
            if (tracesShown.add(sys.name() + "/" + store.name + ": " + e)) {
                e.printStackTrace(System.out);
            } else {
                System.out.println("# (same failure as before; stack trace shown once)");
            }
            Result r = new Result();
            r.failed = true;
            return r;
        } finally {
            if (qs != null) {
                try {
                    qs.close();
                } catch (Throwable e) {
                    System.out.println("# " + key + ": close failed: " + e);
                }
            }
            if (dir != null && !Boolean.getBoolean("bench.keep")) {
                deleteTree(dir);
            }
            System.out.flush();
        }
    }

    private void report(CaseDef c, BenchStore store, List<SystemDef> chosen, Map<String, List<Result>> results) {
        Map<String, double[]> totals = new LinkedHashMap<>();
        for (SystemDef sys : chosen) {
            List<Result> all = results.get(sys.name());
            List<Result> rs = all.stream().filter(r -> !r.failed).toList();
            long failures = all.size() - rs.size();
            long enqN = 0;
            long deqN = 0;
            double enqS = 0;
            double deqS = 0;
            Map<String, Long> sums = new java.util.TreeMap<>(Comparator.comparingInt(Bench::countOrder).thenComparing(k -> k));
            for (Result r : rs) {
                enqN += r.enqN;
                deqN += r.deqN;
                enqS += r.enqSecs;
                deqS += r.deqSecs;
                r.counts.forEach((k, v) -> sums.merge(k, v, Long::sum));
            }
            if (failures > 0) {
                sums.put("failed", failures);
            }
            double enq = enqS > 0 ? enqN / enqS : 0;
            double deq = deqS > 0 ? deqN / deqS : 0;
            if (!rs.isEmpty()) {
                totals.put(sys.name(), new double[] {enq, deq});
                TOTALS.put(key(sys.name(), store, c.name()), new double[] {enq, deq});
            }
            StringBuilder line = new StringBuilder("BENCH ").append(key(sys.name(), store, c.name())).append(' ')
                    .append(rs.isEmpty() ? "enq_per_s=n/a deq_per_s=n/a" : rates(enq, deq))
                    .append(" enq_n=").append(enqN).append(" deq_n=").append(deqN);
            sums.forEach((k, v) -> line.append(' ').append(k).append('=').append(v));
            line.append(" rounds=").append(rs.size())
                    .append(" enq_rounds=").append(all.stream().map(r -> r.failed ? "failed" : String.format(Locale.ROOT, "%.0f", r.enqRate())).collect(Collectors.joining(",")))
                    .append(" deq_rounds=").append(all.stream().map(r -> r.failed ? "failed" : String.format(Locale.ROOT, "%.0f", r.deqRate())).collect(Collectors.joining(",")));
            System.out.println(line);
        }
        List<Result> a = results.get("aqueduct");
        List<Result> b = results.get("raw-jdbc");
        if (a != null && b != null) {
            double[] aq = totals.getOrDefault("aqueduct", new double[2]);
            double[] raw = totals.getOrDefault("raw-jdbc", new double[2]);
            boolean both = totals.containsKey("aqueduct") && totals.containsKey("raw-jdbc");
            StringBuilder enqRounds = new StringBuilder();
            StringBuilder deqRounds = new StringBuilder();
            long failures = 0;
            for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
                String sep = i == 0 ? "" : ",";
                boolean ok = !a.get(i).failed && !b.get(i).failed;
                failures += ok ? 0 : 1;
                enqRounds.append(sep).append(ok ? ratio(a.get(i).enqRate(), b.get(i).enqRate()) : "n/a");
                deqRounds.append(sep).append(ok ? ratio(a.get(i).deqRate(), b.get(i).deqRate()) : "n/a");
            }
            System.out.println("BENCH ratio/" + store.name + "/" + c.name() + " enq=" + (both ? ratio(aq[0], raw[0]) : "n/a")
                    + " deq=" + (both ? ratio(aq[1], raw[1]) : "n/a") + " enq_rounds=" + enqRounds + " deq_rounds=" + deqRounds
                    + (failures > 0 ? " failed_rounds=" + failures : ""));
        }
        reportJms(c, store, results, totals);
        System.out.flush();
    }

    /**
     * {@code BENCH ratio-jms/<store>/<case> enq=<jms/native> deq=<jms/native> vs=<native key>}: JMS
     * against the native Aqueduct case of the same run, round by round when they ran in the same
     * case (the transacted variant compares with the native commit-each/1p1c, which ran before it).
     */
    private static void reportJms(CaseDef c, BenchStore store, Map<String, List<Result>> results, Map<String, double[]> totals) {
        double[] jms = totals.get("aqueduct-jms");
        if (jms == null) {
            return;
        }
        String nativeCase = c.transactedEach() ? c.name().replace("commit-each-tx/", "commit-each/") : c.name();
        double[] aq = c.transactedEach() ? TOTALS.get(key("aqueduct", store, nativeCase)) : totals.get("aqueduct");
        if (aq == null) {
            return;
        }
        StringBuilder line = new StringBuilder("BENCH ratio-jms/" + store.name + "/" + c.name() + " enq=" + ratio(jms[0], aq[0])
                + " deq=" + ratio(jms[1], aq[1]) + " vs=" + key("aqueduct", store, nativeCase));
        List<Result> a = results.get("aqueduct-jms");
        List<Result> b = results.get("aqueduct");
        if (a != null && b != null) {
            StringBuilder enq = new StringBuilder();
            StringBuilder deq = new StringBuilder();
            for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
                boolean ok = !a.get(i).failed && !b.get(i).failed;
                enq.append(i == 0 ? "" : ",").append(ok ? ratio(a.get(i).enqRate(), b.get(i).enqRate()) : "n/a");
                deq.append(i == 0 ? "" : ",").append(ok ? ratio(a.get(i).deqRate(), b.get(i).deqRate()) : "n/a");
            }
            line.append(" enq_rounds=").append(enq).append(" deq_rounds=").append(deq);
        }
        System.out.println(line);
    }

    /** The order of the count keys on a BENCH line. */
    private static int countOrder(String key) {
        int i = List.of("lost", "left", "undrained", "dup", "phantom", "errors", "conflicts", "failed").indexOf(key);
        return i < 0 ? 99 : i;
    }

    private static String rates(double enq, double deq) {
        return String.format(Locale.ROOT, "enq_per_s=%.0f deq_per_s=%.0f", enq, deq);
    }

    private static String ratio(double a, double b) {
        return b > 0 ? String.format(Locale.ROOT, "%.2f", a / b) : "n/a";
    }

    private static String counts(Result r) {
        StringBuilder b = new StringBuilder(" enq_n=" + r.enqN + " deq_n=" + r.deqN);
        r.counts.forEach((k, v) -> b.append(' ').append(k).append('=').append(v));
        return b.toString();
    }

    private static String info(Result r) {
        StringBuilder b = new StringBuilder();
        r.info.forEach((k, v) -> b.append(' ').append(k).append('=').append(v));
        return b.toString();
    }

    /** Durable small writes per second on the temp disk right now (fdatasync of one 512-byte block). */
    private double fsyncRate() {
        return fsyncRate(base);
    }

    /** As above, in {@code dir} (for the {@link Extra} scenarios). */
    public static double fsyncRate(Path dir) {
        Path f = dir.resolve("fsync-probe");
        ByteBuffer buf = ByteBuffer.allocate(512);
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            long t0 = System.nanoTime();
            long n = 0;
            long t;
            while ((t = System.nanoTime()) - t0 < 300_000_000L) {
                buf.clear();
                ch.write(buf, 0);
                ch.force(false);
                n++;
            }
            return n / ((t - t0) / 1e9);
        } catch (IOException e) {
            return -1;
        }
    }

    /**
     * Untimed: each side's enqueue / dequeue paths run (JIT) before anything is timed on a store; on
     * a server half as long as on Derby (the common code is warm by then; the drivers are not).
     */
    private void warmup(SystemDef sys, BenchStore store) {
        long t0 = System.nanoTime();
        long unit = store.shared() ? 500_000_000L : 1_000_000_000L;
        Path dir = base.resolve("warmup-" + sys.name() + "-" + store.name);
        QueueSystem qs = null;
        try {
            Files.createDirectory(dir);
            qs = sys.factory().get();
            qs.open(store, dir);
            long id = 0;
            try (QueueSystem.Producer p = qs.producer(); QueueSystem.Consumer c = qs.consumer()) {
                for (long end = System.nanoTime() + 2 * unit; System.nanoTime() < end;) {
                    p.enqueueCommit(Payloads.of(++id));
                }
                for (long end = System.nanoTime() + 2 * unit; System.nanoTime() < end;) {
                    if (c.dequeueCommit() == null) {
                        break;
                    }
                }
                for (long end = System.nanoTime() + unit; System.nanoTime() < end;) {
                    List<byte[]> batch = new ArrayList<>(BATCH);
                    for (int i = 0; i < BATCH; i++) {
                        batch.add(Payloads.of(++id));
                    }
                    p.enqueueBatchCommit(batch);
                }
                for (long end = System.nanoTime() + unit; System.nanoTime() < end;) {
                    if (c.dequeueBatchCommit(BATCH).isEmpty()) {
                        break;
                    }
                }
            }
            System.out.printf(Locale.ROOT, "# warmup %s/%s: %.1f s%n", sys.name(), store.name, (System.nanoTime() - t0) / 1e9);
        } catch (Throwable e) {
            System.out.println("# warmup " + sys.name() + "/" + store.name + " FAILED: " + e);
            e.printStackTrace(System.out);
        } finally {
            if (qs != null) {
                try {
                    qs.close();
                } catch (Throwable e) {
                    System.out.println("# warmup " + sys.name() + "/" + store.name + ": close failed: " + e);
                }
            }
            deleteTree(dir);
        }
    }

    // ---------------------------------------------------------------- the cases

    /** Enqueue for one phase committing each message, then dequeue (REMOVE) committing each until empty or one phase. */
    private Result commitEach1p1c(QueueSystem qs) throws Exception {
        Result r = new Result();
        long id = 0;
        try (QueueSystem.Producer p = qs.producer()) {
            long t0 = System.nanoTime();
            long end = t0 + phaseNanos;
            while (System.nanoTime() < end && id < maxMessages) {
                p.enqueueCommit(Payloads.of(++id));
            }
            r.enqN = id;
            r.enqSecs = (System.nanoTime() - t0) / 1e9;
        }
        BitSet seen = new BitSet();
        long dup = 0;
        boolean drained = false;
        long conflicts;
        try (QueueSystem.Consumer c = qs.consumer()) {
            long t0 = System.nanoTime();
            long end = t0 + phaseNanos;
            while (System.nanoTime() < end) {
                byte[] b = c.dequeueCommit();
                if (b == null) {
                    drained = true;
                    break;
                }
                dup += mark(seen, Payloads.id(b));
                r.deqN++;
            }
            r.deqSecs = (System.nanoTime() - t0) / 1e9;
            conflicts = c.conflicts();
        }
        verify1p1c(r, id, seen, dup, drained);
        conflicts(r, conflicts);
        return r;
    }

    /** Array enqueue of 100 per commit for one phase, then array dequeue of 100 per commit until empty or one phase. */
    private Result batch1p1c(QueueSystem qs) throws Exception {
        Result r = new Result();
        long id = 0;
        try (QueueSystem.Producer p = qs.producer()) {
            long t0 = System.nanoTime();
            long end = t0 + phaseNanos;
            while (System.nanoTime() < end && id < maxMessages) {
                List<byte[]> batch = new ArrayList<>(BATCH);
                for (int i = 0; i < BATCH; i++) {
                    batch.add(Payloads.of(++id));
                }
                p.enqueueBatchCommit(batch);
            }
            r.enqN = id;
            r.enqSecs = (System.nanoTime() - t0) / 1e9;
        }
        BitSet seen = new BitSet();
        long dup = 0;
        boolean drained = false;
        long conflicts;
        try (QueueSystem.Consumer c = qs.consumer()) {
            long t0 = System.nanoTime();
            long end = t0 + phaseNanos;
            while (System.nanoTime() < end) {
                List<byte[]> got = c.dequeueBatchCommit(BATCH);
                if (got.isEmpty()) {
                    drained = true;
                    break;
                }
                for (byte[] b : got) {
                    dup += mark(seen, Payloads.id(b));
                }
                r.deqN += got.size();
            }
            r.deqSecs = (System.nanoTime() - t0) / 1e9;
            conflicts = c.conflicts();
        }
        verify1p1c(r, id, seen, dup, drained);
        conflicts(r, conflicts);
        return r;
    }

    private void verify1p1c(Result r, long enqueued, BitSet seen, long dup, boolean drained) {
        long distinct = seen.cardinality();
        long phantom = seen.cardinality() - seen.get(1, (int) enqueued + 1).cardinality();
        if (drained) {
            r.counts.put("lost", enqueued - distinct); // drained: everything enqueued must have come out once
        } else {
            r.counts.put("left", enqueued - distinct); // phase ended before the queue was empty
        }
        r.counts.put("dup", dup);
        if (phantom > 0) {
            r.counts.put("phantom", phantom);
        }
        if (dup > 0 || phantom > 0 || (drained && enqueued != distinct)) {
            incorrect = true;
        }
    }

    private static long mark(BitSet seen, long id) {
        if (id < 1 || id > Integer.MAX_VALUE) {
            throw new IllegalStateException("payload counter out of range: " + id);
        }
        if (seen.get((int) id)) {
            return 1;
        }
        seen.set((int) id);
        return 0;
    }

    private static void conflicts(Result r, long n) {
        if (n >= 0) {
            r.counts.merge("conflicts", n, Long::sum);
        }
    }

    /**
     * {@code producers} threads enqueue committing each message for one phase while {@code consumers}
     * threads dequeue committing each (short wait); consumers stop once the producers are done and a
     * dequeue comes back empty. Then a fresh consumer drains what is left (left=) and every committed
     * message must have been dequeued exactly once (lost=0 dup=0).
     */
    private Result concurrent(QueueSystem qs, int producers, int consumers) throws Exception {
        Result r = new Result();
        AtomicLong ids = new AtomicLong();
        CountDownLatch ready = new CountDownLatch(producers + consumers);
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch producing = new CountDownLatch(producers);
        AtomicLong errors = new AtomicLong();
        AtomicLong conflicts = new AtomicLong(-1);
        AtomicReference<Throwable> fatal = new AtomicReference<>();
        AtomicLong lastDeq = new AtomicLong();
        long[] prodEnd = new long[producers];
        List<List<Long>> committed = new ArrayList<>();
        List<List<Long>> uncertain = new ArrayList<>();
        List<List<Long>> seen = new ArrayList<>();
        long[] t0 = new long[1];
        List<Thread> threads = new ArrayList<>();

        for (int i = 0; i < producers; i++) {
            int me = i;
            List<Long> mine = new ArrayList<>();
            List<Long> unsure = new ArrayList<>();
            committed.add(mine);
            uncertain.add(unsure);
            threads.add(new Thread(() -> {
                boolean[] counted = {false};
                try (QueueSystem.Producer p = qs.producer()) {
                    counted[0] = true;
                    ready.countDown();
                    go.await();
                    long end = t0[0] + phaseNanos;
                    while (System.nanoTime() < end && ids.get() < maxMessages) {
                        long id = ids.incrementAndGet();
                        try {
                            p.enqueueCommit(Payloads.of(id));
                            mine.add(id);
                        } catch (Exception e) {
                            unsure.add(id); // a failed commit may or may not have happened
                            if (errors.incrementAndGet() == 1) {
                                System.out.println("# producer error (first): " + e);
                            }
                            if (errors.get() > 50) {
                                break;
                            }
                        }
                    }
                } catch (Throwable e) {
                    fatal.compareAndSet(null, e);
                } finally {
                    prodEnd[me] = System.nanoTime();
                    producing.countDown();
                    if (!counted[0]) {
                        ready.countDown(); // the session could not be opened
                    }
                }
            }, "producer-" + i));
        }
        for (int i = 0; i < consumers; i++) {
            List<Long> mine = new ArrayList<>();
            seen.add(mine);
            threads.add(new Thread(() -> {
                boolean[] counted = {false};
                try (QueueSystem.Consumer c = qs.consumer()) {
                    counted[0] = true;
                    ready.countDown();
                    go.await();
                    long hardEnd = t0[0] + phaseNanos + (long) (drainSeconds * 1e9);
                    while (System.nanoTime() < hardEnd) {
                        boolean producersDone = producing.getCount() == 0;
                        byte[] b;
                        try {
                            b = c.dequeueWaitCommit();
                        } catch (Exception e) {
                            if (errors.incrementAndGet() == 1) {
                                System.out.println("# consumer error (first): " + e);
                            }
                            if (errors.get() > 50) {
                                break;
                            }
                            continue;
                        }
                        if (b != null) {
                            mine.add(Payloads.id(b));
                            long now = System.nanoTime();
                            lastDeq.accumulateAndGet(now, Math::max);
                        } else if (producersDone) {
                            break;
                        }
                    }
                    long n = c.conflicts();
                    if (n >= 0) {
                        conflicts.accumulateAndGet(n, (a, x) -> Math.max(a, 0) + x);
                    }
                } catch (Throwable e) {
                    fatal.compareAndSet(null, e);
                } finally {
                    if (!counted[0]) {
                        ready.countDown(); // the session could not be opened
                    }
                }
            }, "consumer-" + i));
        }
        threads.forEach(Thread::start);
        ready.await();
        t0[0] = System.nanoTime();
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        if (fatal.get() != null) {
            throw new IllegalStateException("a worker failed", fatal.get());
        }

        // What the timed consumers left behind (nothing, unless they gave up): drain it, untimed.
        List<Long> leftover = new ArrayList<>();
        boolean drained = false;
        try (QueueSystem.Consumer c = qs.consumer()) {
            long end = System.nanoTime() + (long) (drainSeconds * 1e9);
            while (System.nanoTime() < end) {
                List<byte[]> got = c.dequeueBatchCommit(BATCH);
                if (got.isEmpty()) {
                    drained = true;
                    break;
                }
                got.forEach(b -> leftover.add(Payloads.id(b)));
            }
        }

        BitSet committedIds = new BitSet();
        committed.forEach(l -> l.forEach(id -> committedIds.set(id.intValue())));
        BitSet unsureIds = new BitSet();
        uncertain.forEach(l -> l.forEach(id -> unsureIds.set(id.intValue())));
        BitSet all = new BitSet();
        long dup = 0;
        long deq = 0;
        for (List<Long> l : seen) {
            for (long id : l) {
                dup += mark(all, id);
                deq++;
            }
        }
        for (long id : leftover) {
            dup += mark(all, id);
        }
        BitSet lost = (BitSet) committedIds.clone();
        lost.andNot(all);
        BitSet phantom = (BitSet) all.clone();
        phantom.andNot(committedIds);
        phantom.andNot(unsureIds);

        long producerEnd = java.util.Arrays.stream(prodEnd).max().orElse(t0[0]);
        r.enqN = committedIds.cardinality();
        r.enqSecs = (producerEnd - t0[0]) / 1e9;
        r.deqN = deq;
        r.deqSecs = lastDeq.get() > 0 ? (lastDeq.get() - t0[0]) / 1e9 : 0;
        if (drained) {
            r.counts.put("lost", (long) lost.cardinality());
        } else {
            r.counts.put("undrained", 1L); // queue not empty even after the untimed drain: lost= cannot be told
        }
        r.counts.put("dup", dup);
        r.counts.put("left", (long) leftover.size());
        if (phantom.cardinality() > 0) {
            r.counts.put("phantom", (long) phantom.cardinality());
        }
        if (errors.get() > 0) {
            r.counts.put("errors", errors.get());
        }
        if (conflicts.get() >= 0) {
            r.counts.put("conflicts", conflicts.get());
        }
        r.info.put("deq_window_s", String.format(Locale.ROOT, "%.1f", r.deqSecs));
        if ((drained && lost.cardinality() > 0) || dup > 0 || phantom.cardinality() > 0) {
            incorrect = true;
        }
        return r;
    }

    public static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort: a temp directory
                }
            });
        } catch (IOException ignored) {
            // best effort
        }
    }
}
