package io.aqueduct.it.probe;

import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** What the client-mode tests call over HTTP: GET /probe/<op>?..., plain-text answers. */
@WebServlet("/probe/*")
public class ProbeServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @EJB
    private ProbeBean probe;

    @EJB
    private ProbeJmsBean jmsProbe;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain;charset=UTF-8");
        String op = req.getPathInfo() == null ? "" : req.getPathInfo().substring(1);
        String out;
        try {
            out = handle(op, req);
        } catch (RuntimeException e) {
            StringWriter sw = new StringWriter();
            e.printStackTrace(new PrintWriter(sw));
            resp.setStatus(500);
            out = "error=" + e + "\n" + sw;
        }
        resp.getWriter().print(out);
    }

    private String handle(String op, HttpServletRequest req) {
        switch (op) {
            case "book":
                return "msgid=" + probe.book(req.getParameter("id"), req.getParameter("shipping"), req.getParameter("region"),
                        Boolean.parseBoolean(req.getParameter("rollback")));
            case "order": {
                String id = req.getParameter("id");
                return "booked=" + probe.isBooked(id) + "\nshipped=" + probe.isShipped(id);
            }
            case "enqueue": {
                int count = intParam(req, "count", 1);
                String text = req.getParameter("text") == null ? "" : req.getParameter("text");
                int size = intParam(req, "size", 0);
                if (size > 0) {
                    text = text + "x".repeat(Math.max(0, size - text.length()));
                }
                List<String> texts = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    texts.add(text);
                }
                // taken before the call: a delay runs from the enqueue inside it, so delivery is never earlier than this + delay
                long enqueuedAt = System.currentTimeMillis();
                List<String> ids = probe.enqueue(req.getParameter("queue"), texts, intParam(req, "delay", 0),
                        req.getParameter("correlation"), req.getParameter("exceptionQueue"),
                        req.getParameter("recipients") == null ? null : List.of(req.getParameter("recipients").split(",")),
                        Boolean.parseBoolean(req.getParameter("rollback")));
                return "count=" + ids.size() + "\nids=" + (ids.size() <= 20 ? String.join(",", ids) : "")
                        + "\nenqueuedAt=" + enqueuedAt;
            }
            case "enqueue-each": {
                // the EJB-enqueue benchmark: n container transactions, one message each
                int n = intParam(req, "n", 1);
                String text = "x".repeat(intParam(req, "size", 1024));
                String queue = req.getParameter("queue");
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    probe.enqueueOne(queue, text);
                }
                return "n=" + n + "\nnanos=" + (System.nanoTime() - t0);
            }
            case "attempts": {
                List<Long> a = Recorder.ATTEMPTS.getOrDefault(req.getParameter("id"), List.of());
                StringBuilder sb = new StringBuilder();
                for (Long t : a) {
                    sb.append(sb.length() == 0 ? "" : ",").append(t);
                }
                return "attempts=" + sb;
            }
            case "deliveries": {
                String queue = req.getParameter("queue");
                Map<String, AtomicInteger> d = Recorder.DELIVERIES.getOrDefault(queue, Map.of());
                long duplicates = d.values().stream().filter(c -> c.get() > 1).count();
                long total = d.values().stream().mapToLong(AtomicInteger::get).sum();
                AtomicInteger max = Recorder.MAX_IN_FLIGHT.get(queue);
                long first = Long.MAX_VALUE;
                long last = 0;
                for (String id : d.keySet()) {
                    Long t = Recorder.RECEIVED_AT.get(id);
                    if (t != null) {
                        first = Math.min(first, t);
                        last = Math.max(last, t);
                    }
                }
                return "messages=" + d.size() + "\ndeliveries=" + total + "\nduplicates=" + duplicates
                        + "\nmaxInFlight=" + (max == null ? 0 : max.get()) + "\nfirst=" + (last == 0 ? 0 : first) + "\nlast=" + last
                        + "\nnow=" + System.currentTimeMillis()
                        + (Boolean.parseBoolean(req.getParameter("ids")) ? "\nids=" + String.join(",", new java.util.TreeSet<>(d.keySet())) : "");
            }
            case "propagated": {
                // the id the propagated copy of source message id was delivered with (ORIGINAL_MSGID = id), or none
                String delivered = Recorder.ORIGINALS.get(req.getParameter("id"));
                return "delivered=" + (delivered == null ? "none" : delivered);
            }
            case "buffered-enqueued":
                return "enqueued=" + probe.bufferedEnqueued(req.getParameter("queue"));
            case "received": {
                Long t = Recorder.RECEIVED_AT.get(req.getParameter("id"));
                return "receivedAt=" + (t == null ? -1 : t);
            }
            case "dequeue": {
                String m = probe.dequeue(req.getParameter("queue"), req.getParameter("id"));
                return m == null ? "none" : "message=" + m;
            }
            // ---------------------------------------------------------------- Jakarta Messaging
            case "jms-send": {
                // TextMessages through the injected JMSContext, in one container transaction
                int count = intParam(req, "count", 1);
                String text = req.getParameter("text") == null ? "" : req.getParameter("text");
                List<String> texts = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    texts.add(count == 1 ? text : text + "-" + i);
                }
                Map<String, String> properties = new java.util.LinkedHashMap<>();
                if (req.getParameter("color") != null) {
                    properties.put("color", req.getParameter("color"));
                }
                if (req.getParameter("exceptionQueue") != null) {
                    properties.put(ProbeJmsBean.EXCEPTION_QUEUE_PROPERTY, req.getParameter("exceptionQueue"));
                }
                String destination = req.getParameter("destination") == null ? ProbeQueues.JMS_QUEUE : req.getParameter("destination");
                long sentAt = System.currentTimeMillis();
                List<String> ids = jmsProbe.send(destination, Boolean.parseBoolean(req.getParameter("topic")), texts, properties,
                        intParam(req, "hold", 0), Boolean.parseBoolean(req.getParameter("rollback")),
                        Boolean.parseBoolean(req.getParameter("injected")));
                return "count=" + ids.size() + "\nids=" + (ids.size() <= 20 ? String.join(",", ids) : "") + "\nsentAt=" + sentAt
                        + "\nreturnedAt=" + System.currentTimeMillis();
            }
            case "jms-send-notx": {
                String[] r = jmsProbe.sendWithoutTransaction(req.getParameter("text"), intParam(req, "wait", 10_000),
                        Boolean.parseBoolean(req.getParameter("nonPersistent"))).split(",");
                return "id=" + r[0] + "\nreceivedAt=" + r[1] + "\nreturnedAt=" + System.currentTimeMillis();
            }
            case "jms-send-row":
                return "id=" + jmsProbe.sendWithRow(req.getParameter("rowId"), Boolean.parseBoolean(req.getParameter("rollback")),
                        Boolean.parseBoolean(req.getParameter("duplicate")));
            case "jms-restrictions":
                return jmsProbe.restrictions();
            case "jms-client-id":
                return "clientId=" + jmsProbe.clientId();
            case "jms-row":
                return "row=" + jmsProbe.hasRow(req.getParameter("rowId"));
            case "jms-seen": {
                // what a JMS MDB received: by JMSMessageID, or the ids of the messages with property rowId
                if (req.getParameter("rowId") != null) {
                    List<String> ids = new ArrayList<>();
                    Recorder.JMS_SEEN.forEach((id, seen) -> {
                        if (seen.contains("\nrowId=" + req.getParameter("rowId") + "\n")) {
                            ids.add(id);
                        }
                    });
                    return "ids=" + String.join(",", ids);
                }
                String seen = Recorder.JMS_SEEN.get(req.getParameter("id"));
                return seen == null ? "none" : seen;
            }
            case "jms-attempts":
                return "attempts=" + String.join(",", Recorder.JMS_ATTEMPTS.getOrDefault(req.getParameter("id"), List.of()));
            case "jms-receive": {
                String m = jmsProbe.receive(req.getParameter("queue"), req.getParameter("selector"));
                return m == null ? "none" : "message=" + m;
            }
            case "jms-send-bytes": {
                // the benchmark's load: count BytesMessages of size bytes, in one transaction
                jmsProbe.sendBytes(req.getParameter("queue"), intParam(req, "count", 1), new byte[intParam(req, "size", 1024)]);
                return "count=" + intParam(req, "count", 1);
            }
            case "jms-send-each": {
                // the JMS EJB-send benchmark: n container transactions, one BytesMessage each
                int n = intParam(req, "n", 1);
                byte[] payload = new byte[intParam(req, "size", 1024)];
                String queue = req.getParameter("queue");
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    jmsProbe.sendOne(queue, payload);
                }
                return "n=" + n + "\nnanos=" + (System.nanoTime() - t0);
            }
            case "reset":
                Recorder.reset(req.getParameter("queue"));
                return "ok";
            case "now":
                return "now=" + System.currentTimeMillis();
            default:
                throw new IllegalArgumentException("unknown probe operation '" + op + "'");
        }
    }

    private static int intParam(HttpServletRequest req, String name, int dflt) {
        String v = req.getParameter(name);
        return v == null || v.isBlank() ? dflt : Integer.parseInt(v);
    }
}
