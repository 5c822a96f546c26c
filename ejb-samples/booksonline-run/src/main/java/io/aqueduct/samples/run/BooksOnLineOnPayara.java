package io.aqueduct.samples.run;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.glassfish.embeddable.GlassFish;
import org.glassfish.embeddable.GlassFishProperties;
import org.glassfish.embeddable.GlassFishRuntime;

/**
 * Runs the BooksOnLine EAR in embedded Payara: the resource adapter starts on its Derby store and
 * creates the queues, the sample tour books orders through the OrderEntry EJB (committed and rolled
 * back) and the Shipping MDB ships them; what happens is printed, then the server stops.
 */
public final class BooksOnLineOnPayara {
    private BooksOnLineOnPayara() {
    }

    public static void main(String[] args) throws Exception {
        File ear = new File(args.length > 0 ? args[0] : "ear/target/aqueduct-booksonline.ear");
        Path definitions = Path.of(args.length > 1 ? args[1] : "server-config/queue-definitions.txt");
        if (!ear.isFile()) {
            System.err.println("No EAR at " + ear + ": build it first (mvn -B -q -DskipTests install).");
            System.exit(2);
        }
        // the server's own chatter stays out of the way of what the sample prints
        Logger.getLogger("").setLevel(Level.SEVERE);
        System.setProperty("aqueduct.queueDefinitions", Files.readString(definitions).trim());
        System.setProperty("aqueduct.sample.tour", "true");
        System.out.println("[BooksOnLine] starting embedded Payara and deploying " + ear.getName());
        GlassFishProperties properties = new GlassFishProperties();
        properties.setPort("http-listener", 18280);
        properties.setPort("https-listener", 18281);
        // ports of their own, so that another embedded Payara on the machine (a test, the benchmark) does not clash
        properties.setPort("admin-listener", 18248);
        properties.setProperty("embedded-glassfish-config.server.iiop-service.iiop-listener.orb-listener-1.port", "18237");
        GlassFish server = GlassFishRuntime.bootstrap().newGlassFish(properties);
        server.start();
        int exit = 0;
        try {
            String name = server.getDeployer().deploy(ear, "--name=aqueduct-booksonline");
            if (name == null) {
                System.err.println("[BooksOnLine] the deployment failed; see the server log");
                exit = 1;
            } else {
                long deadline = System.currentTimeMillis() + 120_000;
                while (System.getProperty("aqueduct.sample.tour.done") == null && System.currentTimeMillis() < deadline) {
                    Thread.sleep(100); // waiting for the tour inside the server to say it is done
                }
                if (System.getProperty("aqueduct.sample.tour.done") == null) {
                    System.err.println("[BooksOnLine] the tour did not finish within 120 s");
                    exit = 1;
                }
                server.getDeployer().undeploy(name);
            }
        } finally {
            server.stop();
            server.dispose();
        }
        System.out.println("[BooksOnLine] done; the server is stopped and the queue store shut down");
        System.exit(exit);
    }
}
