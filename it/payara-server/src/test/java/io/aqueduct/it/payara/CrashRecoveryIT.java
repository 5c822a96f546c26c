package io.aqueduct.it.payara;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Payara Server killed (kill -9) under an MDB + EJB XA load and restarted: Payara's automatic
 * transaction recovery must finish the Aqueduct store's in-doubt branches (and the JDBC table's),
 * leaving every key exactly once in the table and in queue B, none lost, none twice, no branch in doubt.
 *
 * <p>Verified in the server once every key is processed (the verify operation of {@link CrashServlet}):
 * {@code XAResource.recover} of the Aqueduct store and of the Derby database, the table's keys, the
 * messages of queues A, B and the exception queue. The test JVM loads no Aqueduct class.
 *
 * <p>The domain: a fresh one under target/crash (port base 30000 or the next free block), the
 * adapter deployed standalone with server-config/glassfish-resources.xml, a Derby XA pool for the
 * table (embedded in the Payara JVM, like the Aqueduct store), automatic-recovery=true, and this
 * module's WAR (EJB producer, MDB, servlet).
 */
@Timeout(value = 330, unit = java.util.concurrent.TimeUnit.SECONDS)
class CrashRecoveryIT {
    private static final Path WORK = Path.of(System.getProperty("crash.workDir", "target/crash")).toAbsolutePath();
    private static final int KEYS = Integer.getInteger("crash.keys", 3000);
    private static final int KILLS = Integer.getInteger("crash.kills", 2);
    private static final int MAX_KILLS = Math.max(KILLS, Integer.getInteger("crash.maxKills", 3));
    private static final String PREFIX = "k";
    /** JTS's logger: at FINE, recovery names every in-doubt Xid, the XAResource that returned it, and its fate. */
    private static final String JTS_LOGGER = "javax.enterprise.system.core.transaction.com.sun.jts.CosTransactions";
    private static final Pattern FOUND = Pattern.compile(
            "Aqueduct found (\\d+) XA branch\\(es\\) in doubt holding (\\d+) message");
    private static final Pattern STATE = Pattern.compile("rows=(\\d+) inDoubtMessages=(-?\\d+)");

    private static PayaraDomain domain;
    private static final long T0 = System.nanoTime();

    @BeforeAll
    static void createDomain() throws IOException {
        // a domain an aborted earlier run of this test left running (its JVM's pid file under target/crash)
        PayaraDomain.killLeftOver(WORK.resolve("domains"));
        deleteTree(WORK);
        Files.createDirectories(WORK);
        int portbase = PayaraDomain.freePortbase(Integer.getInteger("crash.portbase", 30000));
        domain = new PayaraDomain(Path.of(System.getProperty("crash.payaraHome")), WORK.resolve("domains"), portbase);
        log("creating the domain " + PayaraDomain.NAME + " in " + WORK.resolve("domains") + ", port base " + portbase
                + " (admin " + domain.adminPort() + ", http " + domain.httpPort() + ")");
        domain.create();
        // one server.log for the whole run (the test reads it from an offset; the default rotates at 2 MB)
        domain.setLoggingProperty("com.sun.enterprise.server.logging.GFFileHandler.rotationLimitInBytes", "0");
        // the domain goes with this JVM, whatever ends it (a failsafe timeout, Ctrl-C)
        Runtime.getRuntime().addShutdownHook(new Thread(domain::killIfAlive, "kill " + PayaraDomain.NAME));
        // what `asadmin add-library` does (it copies to the domain's lib directory), before the first start: no restart
        try (Stream<Path> jars = Files.list(Path.of(System.getProperty("crash.derbyLib")))) {
            for (Path jar : jars.toList()) {
                Files.copy(jar, domain.domainDir().resolve("lib").resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        try {
            configure();
        } catch (Throwable e) {
            throw new AssertionError("setting up the domain failed: " + e.getMessage() + "\n--- server.log tail ---\n"
                    + domain.serverLogTail(80), e);
        }
    }

    private static void configure() throws IOException {
        domain.start();
        log("domain started");
        Path resources = WORK.resolve("crash-resources.xml");
        try (var in = CrashRecoveryIT.class.getResourceAsStream("/crash-resources.xml")) {
            Files.copy(in, resources, StandardCopyOption.REPLACE_EXISTING);
        }
        Duration t = Duration.ofSeconds(120);
        // automatic recovery: read when the server starts, so it is on at every restart after a kill (the
        // transaction log, logs/server/tx under the domain, is written whether it is on or not)
        domain.asadmin(t, "set", "configs.config.server-config.transaction-service.automatic-recovery=true");
        // not needed here and ~9 s of every start on this machine (from the next start on)
        domain.asadmin(t, "set-hazelcast-configuration", "--enabled=false");
        // the adapter's config before it is deployed: its store under target, and the queues (instead of the
        // JVM option aqueduct.queueDefinitions of server-config/README.md, which would need a restart)
        domain.asadmin(t, "create-resource-adapter-config", "--property", "storeDirectory=" + escape(WORK.resolve("store").toString())
                + ":queueDefinitions=" + escape(Crash.QUEUE_DEFINITIONS), Crash.RA);
        domain.asadmin(t, "deploy", "--name", Crash.RA, "--type", "rar", System.getProperty("crash.rar"));
        domain.asadmin(t, "add-resources", System.getProperty("crash.serverResources"));
        domain.asadmin(t, "add-resources", resources.toString());
        log("adapter deployed, resources added, automatic recovery on");
        domain.asadmin(t, "deploy", "--name", "aqueduct-crash", "--contextroot", "crash",
                "--property", "implicitCdiEnabled=false", System.getProperty("crash.war"));
        assertThat(domain.get("/crash/crash/setup", Duration.ofSeconds(60))).isEqualTo("ok");
        log("application deployed");
    }

    @AfterAll
    static void stopDomain() {
        if (domain != null) {
            domain.stopQuietly();
            log("domain stopped");
        }
    }

    @Test
    void killedUnderXaLoadAndRecovered() throws Exception {
        try {
            run();
        } catch (Throwable e) {
            throw new AssertionError(e.getMessage() + "\n--- server.log tail ---\n" + domain.serverLogTail(80), e);
        }
    }

    private void run() throws Exception {
        long loadStart = System.nanoTime();
        assertThat(domain.get("/crash/crash/load?prefix=" + PREFIX + "&count=" + KEYS + "&batch=100", Duration.ofSeconds(120)))
                .isEqualTo(Integer.toString(KEYS));
        log("enqueued " + KEYS + " keys to " + Crash.QUEUE_A + " in " + ms(loadStart) + " ms (batches of 100)");

        List<String> restarts = new ArrayList<>();
        int foundBranches = 0;
        int foundMessages = 0;
        int[] jtsTotals = new int[3];
        int kill = 0;
        // at least KILLS kills; more (up to MAX_KILLS) while none left an Aqueduct branch in doubt, which is what is under test
        while (kill < KILLS || (foundBranches == 0 && kill < MAX_KILLS)) {
            kill++;
            long threshold = (long) KEYS * kill / (MAX_KILLS + 1);
            long[] state = waitFor("rows in " + Crash.TABLE + " >= " + threshold, Duration.ofSeconds(90), 50, st -> st[0] >= threshold);
            long rowsBefore = state[0];
            assertThat(rowsBefore).as("the MDB must still be processing when the server is killed").isLessThan(KEYS);
            domain.kill9();
            log("kill -9 #" + kill + " at " + rowsBefore + " rows");

            // while it is down: JTS recovery's decisions into server.log (FINE: the in-doubt Xids each XAResource
            // returned, and whether the transaction log knew them: commit, or presumed abort)
            domain.setLogLevel(JTS_LOGGER, "FINE");
            long logOffset = domain.serverLogSize();
            long restart = System.nanoTime();
            domain.start();
            long started = ms(restart);
            // recovered: the adapter's engine no longer holds any message of an earlier JVM's in-doubt branch
            final int k = kill;
            long[] after = waitFor("the in-doubt branches recovered after restart #" + k, Duration.ofSeconds(90), 100,
                    st -> st[1] == 0);
            long recovered = ms(restart);
            String log = domain.serverLogFrom(logOffset);
            Matcher m = FOUND.matcher(log);
            int branches = 0;
            int messages = 0;
            if (m.find()) {
                branches = Integer.parseInt(m.group(1));
                messages = Integer.parseInt(m.group(2));
            }
            foundBranches += branches;
            foundMessages += messages;
            domain.setLogLevel(JTS_LOGGER, "INFO"); // recovery is over: no FINE records of every transaction
            int[] jts = jtsDecisions(log);
            for (int i = 0; i < 3; i++) {
                jtsTotals[i] += jts[i];
            }
            String line = "restart #" + kill + ": start-domain " + started + " ms, recovered " + recovered + " ms after it began;"
                    + " Aqueduct in-doubt branches found at start " + branches + " (holding " + messages + " messages), "
                    + (after[1] == 0 ? branches : 0) + " recovered; JTS recovery: " + jts[0] + " in-doubt Xids from Aqueduct"
                    + " XAResources, " + jts[1] + " committed (in the transaction log), " + jts[2]
                    + " rolled back (presumed abort), all resources; rows then " + after[0];
            restarts.add(line);
            log(line);
            for (String l : inDoubtXidLines(log)) {
                log("  " + l);
            }
            assertThat(problems(log)).as("warnings or errors of Payara's transaction recovery after restart #" + k).isEmpty();
        }

        long[] rows = {waitFor("all " + KEYS + " keys processed", Duration.ofSeconds(120), 200, st -> st[0] >= KEYS)[0]};
        // a duplicate would come now, if at all: the row count must stay the same for a second (a change
        // starts the second again, and the verdict below tells what the extra rows are)
        await("the row count unchanged for 1 s").during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100)).until(() -> {
                    long now = state()[0];
                    boolean same = now == rows[0];
                    rows[0] = now;
                    return same;
                });
        long rowsAtEnd = rows[0];
        Verdict v = verify(domain.get("/crash/crash/verify", Duration.ofSeconds(60)));
        log("figures: keys " + KEYS + ", processed (rows) " + rowsAtEnd + ", lost " + v.lost.size() + ", duplicated "
                + v.duplicated.size() + ", inconsistent " + v.inconsistent.size() + ", still in A " + v.inA + ", in exception queue "
                + v.inExceptionQueue + "; kills " + kill + ", Aqueduct in-doubt branches found at restarts " + foundBranches
                + " (" + foundMessages + " messages), JTS: " + jtsTotals[0] + " Aqueduct Xids in doubt, " + jtsTotals[1]
                + " committed, " + jtsTotals[2] + " rolled back; left in doubt: Aqueduct store " + v.storeInDoubt + ", Derby table "
                + v.tableInDoubt);
        restarts.forEach(r -> log("  " + r));
        assertThat(v.lost).as("keys lost").isEmpty();
        assertThat(v.duplicated).as("keys duplicated").isEmpty();
        assertThat(v.inconsistent).as("keys in an inconsistent state (table / queue B / queue A)").isEmpty();
        assertThat(v.inA).as("keys not processed").isZero();
        assertThat(v.inExceptionQueue).as("keys in the exception queue").isZero();
        assertThat(v.storeInDoubt).as("XA branches left in doubt in the Aqueduct store").isZero();
        assertThat(v.tableInDoubt).as("XA branches left in doubt in the Derby table").isZero();
    }

    /**
     * Polls the state until {@code done}; a server still starting (connection refused, 404 while the
     * application loads) counts as not yet. Fails after {@code max} with the last state or error.
     */
    private long[] waitFor(String what, Duration max, long pollMillis, java.util.function.Predicate<long[]> done) {
        String[] last = {"nothing read yet"};
        long[][] reached = {null};
        try {
            await(what).atMost(max).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(pollMillis)).until(() -> {
                try {
                    long[] st = state();
                    if (done.test(st)) {
                        reached[0] = st;
                        return true;
                    }
                    last[0] = "rows=" + st[0] + " inDoubtMessages=" + st[1];
                } catch (RuntimeException e) {
                    last[0] = e.getMessage();
                }
                return false;
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("waited " + max.toSeconds() + " s for " + what + "; last state: " + last[0], e);
        }
        return reached[0];
    }

    /** rows in the table and in-doubt messages of the engine; a server still starting reads as "not yet". */
    private long[] state() {
        String s = domain.get("/crash/crash/state", Duration.ofSeconds(20));
        Matcher m = STATE.matcher(s);
        if (!m.find()) {
            throw new IllegalStateException("unexpected state: " + s);
        }
        long inDoubt = Long.parseLong(m.group(2));
        if (inDoubt < 0) {
            throw new IllegalStateException("the probe cannot see the adapter's engine (reflection failed): " + s);
        }
        return new long[] {Long.parseLong(m.group(1)), inDoubt};
    }

    /**
     * From JTS's FINE recovery lines: [in-doubt Xids returned by Aqueduct XAResources, branches the
     * transaction log knew (registered with their coordinator: committed), branches it did not know (rolled back)].
     */
    private static int[] jtsDecisions(String log) {
        int aqueductXids = 0;
        // LogFormatter.convertXidArrayToString: "Xid class name is ... Number of Xids are N [ ... ]"
        Matcher m = Pattern.compile("InDoubtXids returned from xaresource = (.*?)are: ?Xid class name is \\S+ Number of Xids are (\\d+)")
                .matcher(log);
        while (m.find()) {
            if (m.group(1).contains("Aqueduct")) {
                aqueductXids += Integer.parseInt(m.group(2));
            }
        }
        return new int[] {aqueductXids, count(log, "Recognized OTSResource"), count(log, "Could  not recognize OTSResource")};
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }

    private static List<String> inDoubtXidLines(String log) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("InDoubtXids returned from xaresource = .*?Number of Xids are \\d+").matcher(log);
        while (m.find()) {
            String l = m.group();
            out.add(l.length() > 300 ? l.substring(0, 300) + "..." : l);
        }
        return out;
    }

    /** WARNING / SEVERE records of the transaction service and the connector runtime (recovery). */
    private static List<String> problems(String log) {
        List<String> out = new ArrayList<>();
        for (String record : log.split("\n(?=\\[20)")) {
            if ((record.contains("[WARNING]") || record.contains("[SEVERE]"))
                    && (record.contains("transaction") || record.contains("jts") || record.contains("recover")
                        || record.contains("resourceadapter"))
                    && !record.contains("Aqueduct found")) { // Aqueduct's own report of the branches it found in doubt: expected
                out.add(record.length() > 600 ? record.substring(0, 600) + "..." : record);
            }
        }
        return out;
    }

    record Verdict(List<String> lost, List<String> duplicated, List<String> inconsistent, int inA, int inExceptionQueue,
            int storeInDoubt, int tableInDoubt) {
    }

    /** The verify operation's answer: in-doubt counts, then "T key count", "A key", "B key", "E key" lines. */
    private Verdict verify(String answer) {
        Map<String, Integer> table = new HashMap<>();
        Map<String, Integer> a = new HashMap<>();
        Map<String, Integer> b = new HashMap<>();
        Map<String, Integer> e = new HashMap<>();
        int storeInDoubt = -1;
        int tableInDoubt = -1;
        for (String line : answer.split("\n")) {
            if (line.startsWith("recoverStore=")) {
                storeInDoubt = Integer.parseInt(line.substring(13).trim());
            } else if (line.startsWith("recoverTable=")) {
                tableInDoubt = Integer.parseInt(line.substring(13).trim());
            } else if (line.startsWith("T ")) {
                String[] f = line.split(" ");
                table.merge(f[1], Integer.parseInt(f[2].trim()), Integer::sum);
            } else if (line.startsWith("A ")) {
                a.merge(line.substring(2).trim(), 1, Integer::sum);
            } else if (line.startsWith("B ")) {
                b.merge(line.substring(2).trim(), 1, Integer::sum);
            } else if (line.startsWith("E ")) {
                e.merge(line.substring(2).trim(), 1, Integer::sum);
            }
        }
        List<String> lost = new ArrayList<>();
        List<String> duplicated = new ArrayList<>();
        List<String> inconsistent = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            String k = CrashLoad.key(PREFIX, i);
            int t = table.getOrDefault(k, 0);
            int inB = b.getOrDefault(k, 0);
            int inA = a.getOrDefault(k, 0);
            int inE = e.getOrDefault(k, 0);
            if (t + inB + inA + inE == 0) {
                lost.add(k);
            } else if (t > 1 || inB > 1 || inA > 1 || inE > 1) {
                duplicated.add(k + "(table " + t + ", B " + inB + ", A " + inA + ", E " + inE + ")");
            } else if (!(t == 1 && inB == 1 && inA == 0 && inE == 0) && !(t == 0 && inB == 0 && inA + inE == 1)) {
                inconsistent.add(k + "(table " + t + ", B " + inB + ", A " + inA + ", E " + inE + ")");
            }
        }
        int inA = a.values().stream().mapToInt(Integer::intValue).sum();
        int inE = e.values().stream().mapToInt(Integer::intValue).sum();
        return new Verdict(lost, duplicated, inconsistent, inA, inE, storeInDoubt, tableInDoubt);
    }

    /** asadmin's property syntax: name=value:name=value, with = and : in a value escaped. */
    private static String escape(String value) {
        return value.replace("\\", "\\\\").replace("=", "\\=").replace(":", "\\:");
    }

    private static long ms(long since) {
        return (System.nanoTime() - since) / 1_000_000;
    }

    private static void log(String s) {
        System.out.printf("[crash %6.1f s] %s%n", (System.nanoTime() - T0) / 1e9, s);
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
