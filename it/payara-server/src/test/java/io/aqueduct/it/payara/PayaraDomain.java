package io.aqueduct.it.payara;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A real Payara Server domain driven through asadmin: create, start, kill -9, stop; its log; HTTP to its applications. */
final class PayaraDomain {
    static final String NAME = "aqcrash";
    private final String name;
    private final Path payaraHome;
    private final Path domainsDir;
    final int portbase;
    // HTTP/1.1 as browsers speak it to http:// (the client's default is an h2c upgrade no browser makes)
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    PayaraDomain(Path payaraHome, Path domainsDir, int portbase) {
        this(NAME, payaraHome, domainsDir, portbase);
    }

    PayaraDomain(String name, Path payaraHome, Path domainsDir, int portbase) {
        this.name = name;
        this.payaraHome = payaraHome;
        this.domainsDir = domainsDir;
        this.portbase = portbase;
    }

    /** The first of {@code first}, {@code first + 1000}, ... whose 100 ports are all free. */
    static int freePortbase(int first) {
        for (int base = first; base < 60000; base += 1000) {
            boolean free = true;
            for (int p = base; p < base + 100 && free; p++) {
                try (ServerSocket s = new ServerSocket()) {
                    s.setReuseAddress(true); // a port in TIME_WAIT from an earlier run is free for Payara too
                    s.bind(new InetSocketAddress(p));
                } catch (IOException e) {
                    free = false;
                }
            }
            if (free) {
                return base;
            }
        }
        throw new IllegalStateException("no free block of 100 ports from " + first);
    }

    int adminPort() {
        return portbase + 48;
    }

    int httpPort() {
        return portbase + 80;
    }

    Path domainDir() {
        return domainsDir.resolve(name);
    }

    Path serverLog() {
        return domainDir().resolve("logs/server.log");
    }

    /** asadmin with the given arguments (remote commands get --port); fails with its output unless it exits with 0. */
    String asadmin(Duration timeout, String... args) {
        return asadminIn(null, timeout, args);
    }

    /** {@link #asadmin(Duration, String...)} run in the directory {@code cwd} (relative paths of a script resolve there). */
    String asadminIn(Path cwd, Duration timeout, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(payaraHome.resolve("bin/asadmin").toString());
        cmd.add("--interactive=false");
        String sub = args[0];
        boolean local = sub.endsWith("-domain") || sub.equals("version");
        if (!local) {
            cmd.add("--port");
            cmd.add(Integer.toString(adminPort()));
        }
        cmd.addAll(List.of(args));
        return run(cwd, cmd, timeout);
    }

    private String run(List<String> cmd, Duration timeout) {
        return run(null, cmd, timeout);
    }

    private String run(Path cwd, List<String> cmd, Duration timeout) {
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            if (cwd != null) {
                pb.directory(cwd.toFile());
            }
            pb.environment().put("AS_JAVA", System.getProperty("java.home"));
            Path out = Files.createTempFile("asadmin", ".out");
            pb.redirectOutput(out.toFile());
            long begin = System.nanoTime();
            Process p = pb.start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", cmd) + " did not finish within " + timeout + ":\n"
                        + Files.readString(out));
            }
            String text = Files.readString(out);
            Files.deleteIfExists(out);
            String label = cmd.get(0).endsWith("asadmin") ? cmd.get(cmd.get(2).equals("--port") ? 4 : 2) : String.join(" ", cmd);
            System.out.printf("  (%s: %d ms)%n", label, (System.nanoTime() - begin) / 1_000_000);
            if (p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", cmd) + " exited with " + p.exitValue() + ":\n" + text);
            }
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    void create() {
        asadmin(Duration.ofSeconds(120), "create-domain", "--portbase", Integer.toString(portbase), "--nopassword",
                "--domaindir", domainsDir.toString(), name);
    }

    void start() {
        asadmin(Duration.ofSeconds(180), "start-domain", "--domaindir", domainsDir.toString(), name);
    }

    void restart() {
        asadmin(Duration.ofSeconds(180), "restart-domain", "--domaindir", domainsDir.toString(), name);
    }

    /** The domain JVM's process id, from config/pid; -1 when there is none. */
    long pid() {
        Path f = domainDir().resolve("config/pid");
        try {
            return Files.exists(f) ? Long.parseLong(Files.readString(f).trim()) : -1;
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /** kill -9 of the domain's JVM; returns once the process is gone. */
    void kill9() {
        long pid = pid();
        if (pid < 0) {
            throw new IllegalStateException("no pid file in " + domainDir().resolve("config"));
        }
        ProcessHandle h = ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException("no process " + pid));
        run(List.of("kill", "-9", Long.toString(pid)), Duration.ofSeconds(10));
        try {
            h.onExit().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("process " + pid + " still alive 30 s after kill -9", e);
        }
    }

    /** kill -9 of the domain's JVM if it runs (no asadmin: for a shutdown hook). */
    void killIfAlive() {
        ProcessHandle.of(pid()).filter(ProcessHandle::isAlive).ifPresent(ProcessHandle::destroyForcibly);
    }

    /** Kills the JVM of a domain an earlier, aborted run left running in {@code domainsDir}, if any. */
    static void killLeftOver(Path domainsDir) {
        killLeftOver(domainsDir, NAME);
    }

    static void killLeftOver(Path domainsDir, String name) {
        Path f = domainsDir.resolve(name).resolve("config/pid");
        try {
            if (Files.exists(f)) {
                long pid = Long.parseLong(Files.readString(f).trim());
                ProcessHandle.of(pid).filter(h -> h.isAlive() && h.info().commandLine().orElse("").contains(domainsDir.toString()))
                        .ifPresent(h -> {
                            System.out.println("killing the domain JVM " + pid + " an earlier run left running");
                            h.destroyForcibly();
                            try {
                                h.onExit().get(30, TimeUnit.SECONDS);
                            } catch (Exception ignored) {
                                // the new domain's ports then move on (freePortbase)
                            }
                        });
            }
        } catch (IOException | NumberFormatException e) {
            // nothing to kill
        }
    }

    /** Stops the domain (asadmin stop-domain, else kill -9); never throws. */
    void stopQuietly() {
        try {
            asadmin(Duration.ofSeconds(90), "stop-domain", "--domaindir", domainsDir.toString(), name);
        } catch (RuntimeException e) {
            System.err.println("stop-domain failed (" + e.getMessage() + "); kill -9 instead");
        }
        long pid = pid();
        ProcessHandle.of(pid).filter(ProcessHandle::isAlive).ifPresent(h -> {
            h.destroyForcibly();
            try {
                h.onExit().get(30, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // reported by the caller's checks
            }
        });
    }

    /** Sets a logger's level in config/logging.properties (read at start, and watched while the server runs). */
    void setLogLevel(String logger, String level) {
        setLoggingProperty(logger + ".level", level);
    }

    void setLoggingProperty(String key, String value) {
        Path f = domainDir().resolve("config/logging.properties");
        try {
            List<String> lines = new ArrayList<>(Files.readAllLines(f));
            lines.removeIf(l -> l.startsWith(key + "="));
            lines.add(key + "=" + value);
            Files.write(f, lines);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Copies server.log to {@code target} (the test's record of what the server said); never throws. */
    void copyServerLog(Path target) {
        try {
            if (Files.exists(serverLog())) {
                Files.createDirectories(target.getParent());
                Files.copy(serverLog(), target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            System.err.println("could not copy " + serverLog() + " to " + target + ": " + e);
        }
    }

    /** POST http://127.0.0.1:<http port><path> with a form body, whatever its status. */
    HttpResponse<String> post(String path, String form, Duration timeout) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort() + path))
                    .timeout(timeout).header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("POST " + path + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    long serverLogSize() {
        try {
            return Files.exists(serverLog()) ? Files.size(serverLog()) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    /** server.log from the given byte offset (Payara appends to it across restarts). */
    String serverLogFrom(long offset) {
        try {
            byte[] all = Files.readAllBytes(serverLog());
            int from = (int) Math.min(Math.max(0, offset), all.length);
            return new String(all, from, all.length - from, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no server.log: " + e + ")";
        }
    }

    String serverLogTail(int lines) {
        String all = serverLogFrom(0);
        String[] l = all.split("\n");
        return String.join("\n", java.util.Arrays.copyOfRange(l, Math.max(0, l.length - lines), l.length));
    }

    /** GET http://127.0.0.1:<http port><path>; the body, or an exception naming the status and body. */
    String get(String path, Duration timeout) {
        HttpResponse<String> r = response(path, timeout);
        if (r.statusCode() != 200) {
            throw new IllegalStateException("GET " + path + ": HTTP " + r.statusCode() + "\n" + r.body());
        }
        return r.body();
    }

    /** GET http://127.0.0.1:<http port><path>, whatever its status. */
    HttpResponse<String> response(String path, Duration timeout) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort() + path))
                    .timeout(timeout).GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + path + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
