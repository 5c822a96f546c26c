package io.aqueduct.it.payara.group;

import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * POST /group/enqueue?prefix=p&amp;count=n&amp;batch=b enqueues keys p-0 .. p-(n-1), b per transaction;
 * GET /group/received answers this instance's name, then one line per key its MDB received;
 * GET /group/acks the same for the acknowledgements its MDB received; GET /group/ticks answers the number of timer firings on this instance.
 */
@WebServlet("/group/*")
public class GroupServlet extends HttpServlet {
    @EJB
    private GroupLoad load;

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        if (!"/enqueue".equals(req.getPathInfo())) {
            resp.sendError(404);
            return;
        }
        String prefix = req.getParameter("prefix");
        int count = Integer.parseInt(req.getParameter("count"));
        int batch = Integer.parseInt(req.getParameter("batch"));
        for (int from = 0; from < count; from += batch) {
            load.enqueueBatch(prefix, from, Math.min(batch, count - from));
        }
        resp.setContentType("text/plain");
        resp.getWriter().println(count);
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain");
        switch (String.valueOf(req.getPathInfo())) {
            case "/received" -> {
                StringBuilder b = new StringBuilder(Group.instance()).append('\n');
                Group.received().forEach(k -> b.append(k).append('\n'));
                resp.getWriter().print(b);
            }
            case "/acks" -> {
                StringBuilder b = new StringBuilder(Group.instance()).append('\n');
                Group.ACKS.forEach(a -> b.append(a).append('\n'));
                resp.getWriter().print(b);
            }
            case "/ticks" -> resp.getWriter().println(Group.TICKS.size());
            default -> resp.sendError(404);
        }
    }
}
