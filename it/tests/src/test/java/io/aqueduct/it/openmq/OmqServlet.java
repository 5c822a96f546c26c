package io.aqueduct.it.openmq;

import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** GET /aqueduct-openmq/omq/<op>?...: send, deliveries, reset; answers k=v lines (as the probe does). */
@WebServlet("/omq/*")
public class OmqServlet extends HttpServlet {
    @EJB
    private OmqSender sender;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String op = req.getPathInfo() == null ? "" : req.getPathInfo().substring(1);
        String queue = "4".equals(req.getParameter("pool")) ? OmqMdbs.FOUR : OmqMdbs.ONE;
        String answer;
        switch (op) {
            case "send" -> {
                int count = Integer.parseInt(req.getParameter("count"));
                sender.send(queue, count, new byte[Integer.parseInt(req.getParameter("size"))]);
                answer = "count=" + count;
            }
            case "reset" -> {
                OmqRecorder.reset(queue);
                answer = "ok";
            }
            case "deliveries" -> {
                Map<String, AtomicInteger> d = OmqRecorder.DELIVERIES.getOrDefault(queue, Map.of());
                answer = "messages=" + d.size()
                        + "\nduplicates=" + d.values().stream().filter(c -> c.get() > 1).count()
                        + "\nfirst=" + OmqRecorder.FIRST.getOrDefault(queue, new AtomicLong()).get()
                        + "\nlast=" + OmqRecorder.LAST.getOrDefault(queue, new AtomicLong()).get()
                        + "\nmaxInFlight=" + OmqRecorder.MAX_IN_FLIGHT.getOrDefault(queue, new AtomicInteger()).get()
                        + "\nsync=" + System.getProperty("imq.persist.file.sync.enabled");
            }
            default -> throw new IllegalArgumentException("unknown operation " + op);
        }
        resp.setContentType("text/plain");
        resp.getWriter().print(answer + "\n");
    }
}
