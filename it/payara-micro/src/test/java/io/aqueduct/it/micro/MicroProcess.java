package io.aqueduct.it.micro;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;

/** One Payara Micro JVM (java -jar payara-micro.jar ...), its console output in a file. */
final class MicroProcess {
    private static final String READY = "Payara Micro 6.2025.10 (build 42) ready in";

    private final Process process;
    final Path log;

    private MicroProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Starts {@code java <jvmArgs> -jar <jar> <microArgs>} in {@code dir}, its output to {@code log}. */
    static MicroProcess start(Path dir, List<String> jvmArgs, Path jar, List<String> microArgs, Path log) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmArgs);
        cmd.add("-jar");
        cmd.add(jar.toString());
        cmd.addAll(microArgs);
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            MicroProcess micro = new MicroProcess(p, log);
            // Micro goes with this JVM, whatever ends it (a failsafe timeout, Ctrl-C)
            Runtime.getRuntime().addShutdownHook(new Thread(p::destroyForcibly, "kill Payara Micro " + p.pid()));
            return micro;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits for Micro's "ready" line; fails with the log's tail when it exits or takes longer than {@code timeout}. */
    void awaitReady(Duration timeout) {
        try {
            await().atMost(timeout).pollInterval(Duration.ofMillis(500))
                    .until(() -> !process.isAlive() || log().contains(READY));
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("Payara Micro not ready within " + timeout + "\n--- " + log + " ---\n" + tail(60));
        }
        if (!process.isAlive()) {
            throw new AssertionError("Payara Micro exited with " + process.exitValue() + "\n--- " + log + " ---\n" + tail(60));
        }
    }

    /** A graceful stop: SIGTERM, Micro's shutdown hook stops the server; true when it ended within the timeout. */
    boolean stop(Duration timeout) {
        process.destroy();
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** kill -9 of the JVM if it still runs (a crash, or the clean-up after a failed test); never throws. */
    void kill() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Everything Micro printed so far. */
    String log() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String tail(int lines) {
        String[] l = log().split("\n");
        return String.join("\n", Arrays.copyOfRange(l, Math.max(0, l.length - lines), l.length));
    }

    /** The first port from {@code first} on that nothing listens on. */
    static int freePort(int first) {
        for (int port = first; port < 65535; port++) {
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(true); // a port in TIME_WAIT from an earlier run is free for Micro too
                s.bind(new InetSocketAddress(port));
                return port;
            } catch (IOException taken) {
                // the next one
            }
        }
        throw new IllegalStateException("no free port from " + first);
    }
}
