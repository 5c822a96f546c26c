package io.aqueduct.it.payara.jms;

import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * What JmsInjectionIT drives over HTTP:
 * <ul>
 * <li>{@code /ji/send?how=injected|created|defined|openmq&text=&rollback=}: one {@link JiSender} call; "sent", or HTTP 500
 * with the stack trace;</li>
 * <li>{@code /ji/received?queue=aqueduct|openmq}: the texts the MDB of that queue received, one a line.</li>
 * </ul>
 */
@WebServlet("/ji/*")
public class JiServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @EJB
    private JiSender sender;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String op = req.getPathInfo() == null ? "" : req.getPathInfo().substring(1);
        resp.setContentType("text/plain");
        try {
            String out = switch (op) {
                case "send" -> send(req.getParameter("how"), req.getParameter("text"),
                        Boolean.parseBoolean(req.getParameter("rollback")));
                case "received" -> String.join("\n",
                        "openmq".equals(req.getParameter("queue")) ? JiMdbs.OPENMQ : JiMdbs.AQUEDUCT);
                default -> throw new IllegalArgumentException("unknown operation " + op);
            };
            resp.getWriter().print(out);
        } catch (Exception e) {
            StringWriter w = new StringWriter();
            e.printStackTrace(new PrintWriter(w));
            resp.setStatus(500);
            resp.getWriter().print(w);
        }
    }

    private String send(String how, String text, boolean rollback) {
        switch (how) {
            case "injected" -> sender.sendInjected(text, rollback);
            case "created" -> sender.sendCreated(text, rollback);
            case "defined" -> sender.sendDefined(text, rollback);
            case "openmq" -> sender.sendOpenMq(text, rollback);
            default -> throw new IllegalArgumentException("unknown how " + how);
        }
        return "sent";
    }
}
