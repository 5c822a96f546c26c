package io.aqueduct.it.payara;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * asadmin run from the project root (as server-config/shared-store.asadmin is), the deployment group's
 * instances (their directories under the installation's node directory), and HTTP to them.
 */
final class GroupInstances {
    static final String NODE = "aqueduct-node";
    static final List<String> INSTANCES = List.of("aq1", "aq2");
    private final Path payaraHome;
    private final Path projectRoot;
    private final PayaraDomain das;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    GroupInstances(Path payaraHome, Path projectRoot, PayaraDomain das) {
        this.payaraHome = payaraHome;
        this.projectRoot = projectRoot;
        this.das = das;
    }

    /** The node's directory in the installation: the instances' own directories are in it. */
    static Path nodeDir(Path payaraHome) {
        return payaraHome.resolve("glassfish/nodes").resolve(NODE);
    }

    Path serverLog(String instance) {
        return nodeDir(payaraHome).resolve(instance).resolve("logs/server.log");
    }

    String serverLogText(String instance) {
        try {
            return Files.readString(serverLog(instance));
        } catch (IOException e) {
            return "(no server.log of " + instance + ": " + e + ")";
        }
    }

    /** {@code asadmin args...} against the DAS, run in the project root as the README's commands are typed. */
    String asadmin(Duration timeout, String... args) {
        return das.asadminIn(projectRoot, timeout, args);
    }

    /** The value of a dotted name ({@code asadmin get name}). */
    String get(String dottedName) {
        for (String line : asadmin(Duration.ofSeconds(60), "get", dottedName).split("\n")) {
            if (line.startsWith(dottedName + "=")) {
                return line.substring(dottedName.length() + 1).trim();
            }
        }
        throw new IllegalStateException("asadmin get " + dottedName + " printed no value");
    }

    /** The instance's HTTP port, as create-instance chose it. */
    int httpPort(String instance) {
        return Integer.parseInt(get("servers.server." + instance + ".system-property.HTTP_LISTENER_PORT.value"));
    }

    HttpResponse<String> send(int port, String method, String path, Duration timeout) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(timeout)
                    .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path + " on port " + port + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The body of a 200 answer, else an exception naming status and body. */
    String ok(int port, String method, String path, Duration timeout) {
        HttpResponse<String> r = send(port, method, path, timeout);
        if (r.statusCode() != 200) {
            throw new IllegalStateException(method + " " + path + " on port " + port + ": HTTP " + r.statusCode() + "\n" + r.body());
        }
        return r.body();
    }

    /** Kills the instance JVMs an earlier, aborted run left running (their pid files in the node directory). */
    static void killLeftOvers(Path payaraHome) {
        for (String instance : INSTANCES) {
            Path pid = nodeDir(payaraHome).resolve(instance).resolve("config/pid");
            try {
                if (Files.exists(pid)) {
                    long id = Long.parseLong(Files.readString(pid).trim());
                    ProcessHandle.of(id).filter(h -> h.isAlive() && h.info().commandLine().orElse("").contains(payaraHome.toString()))
                            .ifPresent(h -> {
                                System.out.println("killing instance " + instance + " (" + id + ") an earlier run left running");
                                h.destroyForcibly();
                                try {
                                    h.onExit().get(30, TimeUnit.SECONDS);
                                } catch (Exception ignored) {
                                    // its ports then stay taken: create-instance chooses others
                                }
                            });
                }
            } catch (IOException | NumberFormatException e) {
                // nothing to kill
            }
        }
    }

    /** Copies each instance's server.log to {@code dir}/&lt;instance&gt;-server.log. */
    void copyLogs(Path dir) {
        for (String instance : INSTANCES) {
            try {
                if (Files.exists(serverLog(instance))) {
                    Files.createDirectories(dir);
                    Files.copy(serverLog(instance), dir.resolve(instance + "-server.log"), StandardCopyOption.REPLACE_EXISTING);
                }
            } catch (IOException e) {
                System.err.println("could not copy the server.log of " + instance + ": " + e);
            }
        }
    }
}
