package io.aqueduct.http;

import io.aqueduct.api.AqAgentInfo;
import io.aqueduct.api.AqConnectionFactory;
import io.aqueduct.api.QueueSession;
import io.aqueduct.http.transaction.HeldTransactions;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * The WAR's composition root: its settings, the connection factory its sessions come from, the transactions held
 * between requests (rolled back when idle by a task on the container's managed scheduler) and the payload types of
 * the queues it has seen. One per deployment, in the servlet context.
 */
@WebListener
public final class HttpAccess implements ServletContextListener {
    private static final Logger LOG = Logger.getLogger(HttpAccess.class.getName());
    private static final String ATTRIBUTE = HttpAccess.class.getName();
    /**
     * The EAR's application-scoped factory (ear/.../application.xml), then aqueduct-standalone.war's reference to the
     * server-wide one (server-config/aqueduct-setup.asadmin).
     */
    static final List<String> FACTORY_NAMES = List.of("java:app/aqueduct/QueueSessions", "java:comp/env/aqueduct/QueueSessions");

    private HttpAccessSettings settings;
    private AqConnectionFactory factory;
    private HeldTransactions transactions;
    private PayloadTypes payloadTypes;
    private HttpUsers users;
    private ScheduledFuture<?> sweeper;

    public static HttpAccess of(ServletContext context) {
        return (HttpAccess) context.getAttribute(ATTRIBUTE);
    }

    @Override
    public void contextInitialized(ServletContextEvent event) {
        ServletContext context = event.getServletContext();
        settings = HttpAccessSettings.of(context);
        factory = lookUpFactory();
        transactions = new HeldTransactions(settings.transactionTimeout(), settings.maxTransactionsPerUser(), Clock.systemUTC(),
                lookUp(ManagedThreadFactory.class, "java:comp/DefaultManagedThreadFactory"));
        payloadTypes = new PayloadTypes(Clock.systemUTC());
        users = new HttpUsers(this::aqAgents, settings.agentCacheTime(), Clock.systemUTC());
        long period = Math.max(1, Math.min(10, settings.transactionTimeout().toSeconds() / 4));
        sweeper = lookUp(ManagedScheduledExecutorService.class, "java:comp/DefaultManagedScheduledExecutorService")
                .scheduleWithFixedDelay(this::sweep, period, period, TimeUnit.SECONDS);
        context.setAttribute(ATTRIBUTE, this);
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        if (sweeper != null) {
            sweeper.cancel(false);
        }
        if (transactions != null) {
            transactions.rollBackAll();
        }
    }

    private void sweep() {
        try {
            transactions.sweep();
        } catch (RuntimeException e) {
            // the next run tries again; a sweeper that died would leave transactions open forever
            LOG.log(Level.WARNING, "Aqueduct HTTP: rolling back idle transactions failed", e);
        }
    }

    private AqConnectionFactory lookUpFactory() {
        List<String> names = settings.connectionFactory() != null ? List.of(settings.connectionFactory()) : FACTORY_NAMES;
        List<String> failures = new ArrayList<>();
        for (String name : names) {
            try {
                return (AqConnectionFactory) new InitialContext().lookup(name);
            } catch (NamingException | ClassCastException e) {
                failures.add(name + ": " + e);
            }
        }
        throw new IllegalStateException("Aqueduct HTTP found no queue connection factory " + failures
                + ": deploy it in the BooksOnLine EAR, beside the standalone resource adapter with the resources of"
                + " server-config/aqueduct-setup.asadmin, or name the factory in context parameter "
                + HttpAccessSettings.PREFIX + "connectionFactory.");
    }

    private static <T> T lookUp(Class<T> type, String name) {
        try {
            return type.cast(new InitialContext().lookup(name));
        } catch (NamingException e) {
            throw new IllegalStateException("Aqueduct HTTP needs the container's " + name + ": " + e, e);
        }
    }

    public HttpAccessSettings settings() {
        return settings;
    }

    public HeldTransactions transactions() {
        return transactions;
    }

    public PayloadTypes payloadTypes() {
        return payloadTypes;
    }

    public HttpUsers users() {
        return users;
    }

    /** A queue session working as the request's database user: the engine checks that user's privileges. */
    public QueueSession openSession(HttpUser user) {
        return factory.openSession(user.dbUser());
    }

    /**
     * The catalog's agents, read in a session of the factory's default user (in the container the caller, an HTTP
     * user): reading the catalog needs no privilege (docs/security.md).
     */
    private List<AqAgentInfo> aqAgents() {
        try (QueueSession session = factory.openSession()) {
            return session.admin().aqAgents();
        }
    }
}
