package io.aqueduct.samples.jms;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the sample as the README does (twice on one store: it must run again) and reads what it prints. */
class BooksOnLineJmsTest {
    @TempDir
    Path dir;

    @Test
    void orders_go_through_the_queue_in_priority_order_and_reach_both_subscribers() throws Exception {
        String store = dir.resolve("store").toString();
        for (int run = 1; run <= 2; run++) {
            List<String> lines = runMain(store);
            assertThat(lines).as("run " + run).containsExactly(
                    "order entry: sent order 1: Leaves of Grass (NORMAL, JMS priority 4)",
                    "order entry: sent order 2: Moby-Dick (RUSH, JMS priority 8)",
                    "order entry: sent order 3: Walden (NORMAL, JMS priority 4)",
                    "order processing: booked order 2: Moby-Dick (RUSH)",
                    "order processing: booked order 1: Leaves of Grass (NORMAL)",
                    "order processing: booked order 3: Walden (NORMAL)",
                    "shipping: received booked order 2: Moby-Dick",
                    "shipping: received booked order 1: Leaves of Grass",
                    "shipping: received booked order 3: Walden",
                    "billing: received booked order 2: Moby-Dick",
                    "billing: received booked order 1: Leaves of Grass",
                    "billing: received booked order 3: Walden",
                    "done: 3 orders booked, shipped and billed");
        }
    }

    private static List<String> runMain(String store) throws Exception {
        PrintStream previous = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            BooksOnLineJms.main(new String[] {store});
        } finally {
            System.setOut(previous);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        previous.print(text);
        return text.lines().toList();
    }
}
