package io.aqueduct.bench.aqueduct;

/**
 * {@code aqueduct-buffered/derby/wake/1node} ({@code bench/run buffered}): {@link LatencyBench} with a
 * BUFFERED enqueue (in memory, no commit to wait for) to a consumer blocked in a BUFFERED dequeue; {@code wake}
 * = the enqueue call returning to the consumer's dequeue returning.
 */
public final class BufferedLatencyBench extends LatencyBench {
    public BufferedLatencyBench() {
        super("aqueduct-buffered/derby/wake/1node", true);
    }

    @Override
    public String optInWord() {
        return "buffered"; // a run of everything stays as it was
    }
}
