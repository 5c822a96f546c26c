package io.aqueduct.it.probe;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What this module's MDBs recorded, over HTTP: GET /recorder/deliveries?queue=KEY. In the probe WAR
 * and in the small WARs the tests deploy beside it (which have no ProbeServlet: no EJBs of the EAR there).
 */
@WebServlet("/recorder/*")
public class RecorderServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain;charset=UTF-8");
        Map<String, AtomicInteger> d = Recorder.DELIVERIES.getOrDefault(req.getParameter("queue"), Map.of());
        long total = d.values().stream().mapToLong(AtomicInteger::get).sum();
        long duplicates = d.values().stream().filter(c -> c.get() > 1).count();
        StringBuilder texts = new StringBuilder();
        for (String id : new TreeSet<>(d.keySet())) {
            String seen = Recorder.JMS_SEEN.getOrDefault(id, "");
            for (String line : seen.split("\n")) {
                if (line.startsWith("text=")) {
                    texts.append(texts.length() == 0 ? "" : ",").append(line.substring(5));
                }
            }
        }
        resp.getWriter().print("messages=" + d.size() + "\ndeliveries=" + total + "\nduplicates=" + duplicates
                + "\nids=" + String.join(",", new TreeSet<>(d.keySet())) + "\ntexts=" + texts);
    }
}
