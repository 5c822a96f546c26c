package io.aqueduct.engine.propagation;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.Agent;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.engine.payload.UserPropertiesCodec;
import io.aqueduct.engine.session.PropagatedMessage;
import io.aqueduct.engine.xml.SecureXml;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.transform.TransformerException;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;

/**
 * Propagation over HTTP, as bytes: the requests a source engine POSTs to the Aqueduct servlet of
 * another server ({@link #CONTENT_TYPE}) and the responses that engine's store gives. Both ends are
 * Aqueduct engines, so the format is the engine's own: big-endian numbers, UTF-8 text with its
 * length, user properties as the store keeps them ({@link UserPropertiesCodec}); no Java
 * serialization, so nothing in a request can run code where it is read. Every length and count is
 * checked against what is left before anything is allocated.
 */
public final class PropagationWire {
    /** The media type of requests and responses. */
    public static final String CONTENT_TYPE = "application/vnd.aqueduct.propagation";
    /** A request or response of this format ("AQP", version 1). */
    private static final int MAGIC = 0x41515001;
    static final byte DELIVER = 'D';
    static final byte FORGET = 'F';
    static final byte RECEIPTS = 'R';
    /** Buffered messages: delivered BUFFERED at the destination, their receipts kept in its memory. */
    static final byte DELIVER_BUFFERED = 'B';
    static final byte FORGET_BUFFERED = 'G';
    /** The most arrivals or receipt ids one request carries (a batch is 100 parts; a transaction group more). */
    static final int MAX_ITEMS = 100_000;
    /** The most receipts one listing returns. */
    static final int MAX_LISTING = 10_000;

    private PropagationWire() {
    }

    /** A decoded request: its operation and what it carries. */
    record Request(byte operation, String source, List<LinkSession.Arrival> arrivals, List<String> receiptIds, String after,
            int max) {
    }

    /** Whether {@code payload} can travel: serialized Java objects (OBJECT queues) do not (they are how deserialization attacks work). */
    static boolean travels(Object payload) {
        return payload == null || payload instanceof String || payload instanceof byte[]
                || payload instanceof org.w3c.dom.Node || payload instanceof jakarta.json.JsonValue;
    }

    static byte[] deliver(String source, List<LinkSession.Arrival> arrivals) {
        return deliver(DELIVER, source, arrivals);
    }

    /** Buffered messages: their receipts live in the destination's memory, so no source names them. */
    static byte[] deliverBuffered(List<LinkSession.Arrival> arrivals) {
        return deliver(DELIVER_BUFFERED, "-", arrivals);
    }

    private static byte[] deliver(byte operation, String source, List<LinkSession.Arrival> arrivals) {
        return write(out -> {
            out.writeByte(operation);
            text(out, source);
            out.writeInt(arrivals.size());
            for (LinkSession.Arrival a : arrivals) {
                text(out, a.receiptId());
                text(out, a.queue());
                PropagatedMessage pm = a.message();
                text(out, pm.originalMsgid());
                out.writeBoolean(pm.startsGroup());
                payload(out, pm.message().payload());
                MessageProperties p = pm.message().properties();
                out.writeInt(p.priority());
                out.writeLong(p.delay());
                out.writeLong(p.expiration());
                text(out, p.correlation());
                text(out, p.exceptionQueue());
                agent(out, p.sender());
                List<Agent> recipients = p.recipients();
                out.writeInt(recipients == null ? -1 : recipients.size());
                if (recipients != null) {
                    for (Agent r : recipients) {
                        agent(out, r);
                    }
                }
                bytes(out, UserPropertiesCodec.encode(p.userProperties()));
            }
        });
    }

    static byte[] forget(List<String> receiptIds) {
        return forget(FORGET, receiptIds);
    }

    static byte[] forgetBuffered(List<String> receiptIds) {
        return forget(FORGET_BUFFERED, receiptIds);
    }

    private static byte[] forget(byte operation, List<String> receiptIds) {
        return write(out -> {
            out.writeByte(operation);
            out.writeInt(receiptIds.size());
            for (String id : receiptIds) {
                text(out, id);
            }
        });
    }

    static byte[] receipts(String source, String after, int max) {
        return write(out -> {
            out.writeByte(RECEIPTS);
            text(out, source);
            text(out, after);
            out.writeInt(max);
        });
    }

    /** The request in {@code body}; 24097 naming what is wrong when it is not one. */
    static Request request(byte[] body) {
        return read(body, in -> {
            byte op = in.get();
            switch (op) {
                case DELIVER, DELIVER_BUFFERED -> {
                    String source = in.text();
                    int n = in.count();
                    List<LinkSession.Arrival> arrivals = new ArrayList<>(Math.min(n, 1024));
                    for (int i = 0; i < n; i++) {
                        String receipt = in.required();
                        String queue = in.required();
                        String original = in.required();
                        boolean startsGroup = in.get() != 0;
                        Object payload = in.payload();
                        MessageProperties p = MessageProperties.create();
                        try {
                            p.priority(in.getInt()).delay(in.getLong()).expiration(in.getLong()).correlation(in.text())
                                    .exceptionQueue(in.text()).sender(in.agent());
                            int r = in.getInt();
                            if (r >= 0) {
                                List<Agent> recipients = new ArrayList<>(Math.min(r, 1024));
                                for (int k = 0; k < r; k++) {
                                    recipients.add(in.agent());
                                }
                                p.recipients(recipients);
                            }
                            byte[] props = in.bytes();
                            UserPropertiesCodec.decode(props, original).forEach(p::userProperty);
                        } catch (AqException | IllegalArgumentException e) {
                            throw new IllegalArgumentException("message " + (i + 1) + " has properties no enqueue takes: "
                                    + e.getMessage());
                        }
                        arrivals.add(new LinkSession.Arrival(receipt, queue,
                                new PropagatedMessage(Message.of(payload, p), original, startsGroup), null));
                    }
                    return new Request(op, source, arrivals, List.of(), null, 0);
                }
                case FORGET, FORGET_BUFFERED -> {
                    int n = in.count();
                    List<String> ids = new ArrayList<>(Math.min(n, 1024));
                    for (int i = 0; i < n; i++) {
                        ids.add(in.required());
                    }
                    return new Request(op, null, List.of(), ids, null, 0);
                }
                case RECEIPTS -> {
                    String source = in.required();
                    String after = in.required();
                    int max = in.getInt();
                    if (max < 1 || max > MAX_LISTING) {
                        throw new IllegalArgumentException("a receipt listing of " + max);
                    }
                    return new Request(op, source, List.of(), List.of(), after, max);
                }
                default -> throw new IllegalArgumentException("an unknown operation " + op);
            }
        });
    }

    /** The response to a delivery: per arrival D (delivered), P (delivered before) or R with the refusal's number and text. */
    static byte[] delivered(List<LinkSession.Arrived> outcomes) {
        return write(out -> {
            out.writeInt(outcomes.size());
            for (LinkSession.Arrived a : outcomes) {
                if (a.refused() != null) {
                    out.writeByte('R');
                    out.writeInt(a.refused().errorCode());
                    text(out, String.valueOf(a.refused().getMessage()));
                } else {
                    out.writeByte(a.present() ? 'P' : 'D');
                }
            }
        });
    }

    static List<LinkSession.Arrived> delivered(byte[] body, int expected) {
        return read(body, in -> {
            int n = in.count();
            if (n != expected) {
                throw new IllegalArgumentException(n + " outcomes for " + expected + " messages");
            }
            List<LinkSession.Arrived> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                byte kind = in.get();
                out.add(switch (kind) {
                    case 'D' -> LinkSession.Arrived.DELIVERED;
                    case 'P' -> LinkSession.Arrived.PRESENT;
                    case 'R' -> new LinkSession.Arrived(false, new AqException(in.getInt(), in.required()));
                    default -> throw new IllegalArgumentException("an unknown outcome " + kind);
                });
            }
            return out;
        });
    }

    static byte[] receiptList(List<LinkSession.Receipt> receipts) {
        return write(out -> {
            out.writeInt(receipts.size());
            for (LinkSession.Receipt r : receipts) {
                text(out, r.id());
                out.writeLong(r.createdMs());
            }
        });
    }

    static List<LinkSession.Receipt> receiptList(byte[] body) {
        return read(body, in -> {
            int n = in.count();
            List<LinkSession.Receipt> out = new ArrayList<>(Math.min(n, 1024));
            for (int i = 0; i < n; i++) {
                out.add(new LinkSession.Receipt(in.required(), in.getLong()));
            }
            return out;
        });
    }

    static byte[] done() {
        return write(out -> out.writeInt(0));
    }

    /** Checks the answer to a request that returns nothing. */
    static void done(byte[] body) {
        read(body, in -> in.getInt());
    }

    // ---- writing

    private interface Body {
        void write(DataOutputStream out) throws IOException;
    }

    private static byte[] write(Body body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            body.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return bytes.toByteArray();
    }

    private static void text(DataOutputStream out, String s) throws IOException {
        bytes(out, s == null ? null : s.getBytes(StandardCharsets.UTF_8));
    }

    private static void bytes(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b == null ? -1 : b.length);
        if (b != null) {
            out.write(b);
        }
    }

    private static void agent(DataOutputStream out, Agent a) throws IOException {
        out.writeBoolean(a != null);
        if (a != null) {
            text(out, a.name());
            text(out, a.address());
            out.writeInt(a.protocol());
        }
    }

    private static void payload(DataOutputStream out, Object payload) throws IOException {
        if (payload == null) {
            out.writeByte('N');
        } else if (payload instanceof byte[] b) {
            out.writeByte('B');
            bytes(out, b);
        } else {
            out.writeByte('T'); // text: TEXT, JSON and XML payloads alike; the destination queue's type checks it
            text(out, payload instanceof org.w3c.dom.Node node ? xml(node) : payload.toString());
        }
    }

    private static String xml(org.w3c.dom.Node node) {
        try {
            StringWriter w = new StringWriter();
            SecureXml.transformerFactory().newTransformer().transform(new DOMSource(node), new StreamResult(w));
            return w.toString();
        } catch (TransformerException e) {
            throw new AqException(AqError.PAYLOAD_TYPE_MISMATCH, "An XML payload cannot be written for propagation: "
                    + e.getMessage(), e);
        }
    }

    // ---- reading

    private interface Reading<T> {
        T read(Reader in);
    }

    private static <T> T read(byte[] body, Reading<T> reading) {
        try {
            Reader in = new Reader(ByteBuffer.wrap(body));
            if (in.getInt() != MAGIC) {
                throw new IllegalArgumentException("it does not start as one (another program, or another version of Aqueduct)");
            }
            T t = reading.read(in);
            if (in.buffer.hasRemaining()) {
                throw new IllegalArgumentException(in.buffer.remaining() + " bytes follow its end");
            }
            return t;
        } catch (BufferUnderflowException e) {
            throw malformed("it ends too early");
        } catch (IllegalArgumentException e) {
            throw malformed(e.getMessage());
        }
    }

    private static AqException malformed(String why) {
        return new AqException(AqError.INVALID_VALUE, "This is not an Aqueduct propagation request or response ("
                + CONTENT_TYPE + "): " + why + ".");
    }

    private static final class Reader {
        final ByteBuffer buffer;

        Reader(ByteBuffer buffer) {
            this.buffer = buffer;
        }

        byte get() {
            return buffer.get();
        }

        int getInt() {
            return buffer.getInt();
        }

        long getLong() {
            return buffer.getLong();
        }

        int count() {
            int n = buffer.getInt();
            if (n < 0 || n > MAX_ITEMS || n > buffer.remaining()) {
                throw new IllegalArgumentException("a count of " + n);
            }
            return n;
        }

        byte[] bytes() {
            int n = buffer.getInt();
            if (n == -1) {
                return null;
            }
            if (n < 0 || n > buffer.remaining()) {
                throw new IllegalArgumentException("a length of " + n + " with " + buffer.remaining() + " bytes left");
            }
            byte[] b = new byte[n];
            buffer.get(b);
            return b;
        }

        String text() {
            byte[] b = bytes();
            if (b == null) {
                return null;
            }
            try {
                return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(b)).toString();
            } catch (java.nio.charset.CharacterCodingException e) {
                throw new IllegalArgumentException("text that is not UTF-8");
            }
        }

        String required() {
            String s = text();
            if (s == null) {
                throw new IllegalArgumentException("a missing name");
            }
            return s;
        }

        Agent agent() {
            if (buffer.get() == 0) {
                return null;
            }
            return new Agent(text(), text(), buffer.getInt());
        }

        Object payload() {
            byte tag = buffer.get();
            return switch (tag) {
                case 'N' -> null;
                case 'B' -> bytes();
                case 'T' -> text();
                default -> throw new IllegalArgumentException("an unknown payload tag " + tag);
            };
        }
    }
}
