package io.aqueduct.it.payara;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.QueueSession;
import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.reflect.Field;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import javax.naming.InitialContext;
import javax.sql.XAConnection;
import javax.sql.XADataSource;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * What the test drives over HTTP, outside any transaction:
 * <ul>
 * <li>{@code /crash/setup}: creates the Derby table (no unique key: a key written twice shows as two rows);</li>
 * <li>{@code /crash/load?prefix=&count=&batch=}: enqueues the keys to queue A, one transaction per batch;</li>
 * <li>{@code /crash/state}: rows in the table (read uncommitted, no lock waits) and what the adapter's engine
 * holds in doubt (messages of an earlier JVM's prepared branches, found by reflection: test-only);</li>
 * <li>{@code /crash/verify}, once the load is over: the XA branches in doubt in the Aqueduct store and in the
 * Derby database ({@code XAResource.recover}), every key of the table with its count, every message of queues A,
 * B and the exception queue.</li>
 * </ul>
 */
@WebServlet("/crash/*")
public class CrashServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @EJB
    private CrashLoad load;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String op = req.getPathInfo() == null ? "" : req.getPathInfo().substring(1);
        resp.setContentType("text/plain");
        try {
            String out = switch (op) {
                case "setup" -> setup();
                case "load" -> load(req.getParameter("prefix"), Integer.parseInt(req.getParameter("count")),
                        Integer.parseInt(req.getParameter("batch")));
                case "state" -> "rows=" + rows() + " inDoubtMessages=" + inDoubtMessages();
                case "verify" -> verify();
                default -> throw new IllegalArgumentException("unknown operation " + op);
            };
            resp.getWriter().print(out);
        } catch (Exception e) {
            resp.setStatus(500);
            e.printStackTrace(resp.getWriter());
        }
    }

    private String setup() throws SQLException {
        try (Connection c = CrashMdb.rows().getConnection(); Statement s = c.createStatement()) {
            try {
                s.executeUpdate("CREATE TABLE " + Crash.TABLE + " (K VARCHAR(64) NOT NULL, ATTEMPTS INT,"
                        + " CREATED TIMESTAMP DEFAULT CURRENT_TIMESTAMP)");
            } catch (SQLException e) {
                if (!"X0Y32".equals(e.getSQLState())) { // exists already
                    throw e;
                }
            }
        }
        return "ok";
    }

    private String load(String prefix, int count, int batch) {
        int done = 0;
        while (done < count) {
            int n = Math.min(batch, count - done);
            load.enqueueBatch(prefix, done, n);
            done += n;
        }
        return Integer.toString(done);
    }

    private long rows() throws SQLException {
        try (Connection c = CrashMdb.rows().getConnection(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT COUNT(*) FROM " + Crash.TABLE + " WITH UR")) {
            r.next();
            return r.getLong(1);
        }
    }

    private String verify() throws Exception {
        StringBuilder out = new StringBuilder();
        Object engine = engine();
        // the engine's own user: an administrator, who may browse every queue (a named user would need DEQUEUE)
        try (QueueSession session = (QueueSession) engine.getClass().getMethod("openSession").invoke(engine)) {
            XAResource xa = (XAResource) session.getClass().getMethod("xaResource").invoke(session);
            out.append("recoverStore=").append(count(xa.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN))).append('\n');
            browse(session, Crash.QUEUE_A, "A", out);
            browse(session, Crash.QUEUE_B, "B", out);
            session.admin().startQueue(Crash.EXCEPTION_QUEUE, false, true); // exception queues are created stopped
            browse(session, Crash.EXCEPTION_QUEUE, "E", out);
        }
        // the same Derby engine as the pool's (the domain's lib directory), on the pool's database
        Object ds = Class.forName("org.apache.derby.jdbc.EmbeddedXADataSource").getConstructor().newInstance();
        ds.getClass().getMethod("setDatabaseName", String.class)
                .invoke(ds, System.getProperty("com.sun.aas.instanceRoot") + "/databases/crashrows");
        XAConnection xac = ((XADataSource) ds).getXAConnection("APP", "APP");
        try {
            out.append("recoverTable=").append(count(xac.getXAResource().recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN)))
                    .append('\n');
        } finally {
            xac.close();
        }
        try (Connection c = CrashMdb.rows().getConnection(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT K, COUNT(*) FROM " + Crash.TABLE + " GROUP BY K")) {
            while (r.next()) {
                out.append("T ").append(r.getString(1)).append(' ').append(r.getInt(2)).append('\n');
            }
        }
        return out.toString();
    }

    private static int count(Xid[] xids) {
        return xids == null ? 0 : xids.length;
    }

    private static void browse(QueueSession session, String queue, String tag, StringBuilder out) {
        DequeueOptions o = DequeueOptions.create().mode(DequeueMode.BROWSE).navigation(Navigation.FIRST_MESSAGE)
                .waitSeconds(DequeueOptions.NO_WAIT);
        while (true) {
            Message m;
            try {
                m = session.dequeue(queue, o);
            } catch (AqException e) {
                if (e.errorCode() == AqError.NO_MESSAGE) {
                    return;
                }
                throw e;
            }
            out.append(tag).append(' ').append(m.text()).append('\n');
            o.navigation(Navigation.NEXT_MESSAGE);
        }
    }

    /** The adapter's running engine, by reflection (test-only): factory, its managed connection factory, its adapter. */
    static Object engine() throws ReflectiveOperationException, javax.naming.NamingException {
        Object factory = InitialContext.doLookup(Crash.QUEUE_SESSIONS);
        Field mcfField = factory.getClass().getDeclaredField("mcf");
        mcfField.setAccessible(true);
        Object mcf = mcfField.get(factory);
        Object ra = mcf.getClass().getMethod("getResourceAdapter").invoke(mcf);
        return ra.getClass().getMethod("engine").invoke(ra);
    }

    /**
     * The messages in-doubt branches of an earlier JVM hold in the adapter's engine
     * ({@code AqueductEngine.inDoubtMessages()}); -1 when it cannot be reached. Reflection on the
     * adapter's classes: the connection factory's managed connection factory, its resource adapter, its engine.
     */
    static int inDoubtMessages() {
        try {
            Object engine = engine();
            Object set = engine.getClass().getMethod("inDoubtMessages").invoke(engine);
            return ((Collection<?>) set).size();
        } catch (Exception e) {
            return -1;
        }
    }
}
