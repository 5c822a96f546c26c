package io.aqueduct.console;

import io.aqueduct.api.AqConnectionFactory;
import io.aqueduct.api.QueueSession;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * The console's composition root: the connection factory its sessions come from, found by JNDI as aqueduct.war finds
 * it. A session is opened per request and works as the caller (the logged-in administrator): the engine's own
 * privilege checks apply to what the console does, so the caller must be an administrator of the store (the
 * adapter's {@code administrators}) or hold the privileges the operations need (docs/console.md).
 */
@WebListener
public final class Console implements ServletContextListener {
    private static final String ATTRIBUTE = Console.class.getName();
    /** A context parameter naming another factory than the two defaults. */
    public static final String FACTORY_PARAMETER = "io.aqueduct.console.connectionFactory";
    /**
     * The EAR's application-scoped factory (ear/.../application.xml), then aqueduct-console-standalone.war's reference
     * to the server-wide one (server-config/aqueduct-setup.asadmin).
     */
    static final List<String> FACTORY_NAMES = List.of("java:app/aqueduct/QueueSessions", "java:comp/env/aqueduct/QueueSessions");

    /** Seconds between two statistics polls (the page asks every 2 s: it sees each poll or the next). */
    static final long POLL_SECONDS = 1;

    private AqConnectionFactory factory;
    private StatisticsPoller statistics;
    private ScheduledFuture<?> polling;

    public static Console of(ServletContext context) {
        return (Console) context.getAttribute(ATTRIBUTE);
    }

    @Override
    public void contextInitialized(ServletContextEvent event) {
        ServletContext context = event.getServletContext();
        String configured = context.getInitParameter(FACTORY_PARAMETER);
        List<String> names = configured != null && !configured.isBlank() ? List.of(configured.trim()) : FACTORY_NAMES;
        List<String> failures = new ArrayList<>();
        for (String name : names) {
            try {
                factory = (AqConnectionFactory) new InitialContext().lookup(name);
                break;
            } catch (NamingException | ClassCastException e) {
                failures.add(name + ": " + e);
            }
        }
        if (factory == null) {
            throw new IllegalStateException("Aqueduct console found no queue connection factory " + failures
                    + ": deploy it in the BooksOnLine EAR, beside the standalone resource adapter with the resources of"
                    + " server-config/aqueduct-setup.asadmin, or name the factory in context parameter " + FACTORY_PARAMETER + ".");
        }
        statistics = new StatisticsPoller(factory::openSession, StatisticsPoller::platformCounters, Clock.systemUTC());
        try {
            // the container's scheduler: its threads are the server's, stopped with the application
            ManagedScheduledExecutorService scheduler = (ManagedScheduledExecutorService) new InitialContext()
                    .lookup("java:comp/DefaultManagedScheduledExecutorService");
            polling = scheduler.scheduleWithFixedDelay(statistics::poll, 0, POLL_SECONDS, TimeUnit.SECONDS);
        } catch (NamingException e) {
            throw new IllegalStateException("Aqueduct console needs the container's DefaultManagedScheduledExecutorService: " + e, e);
        }
        context.setAttribute(ATTRIBUTE, this);
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        if (polling != null) {
            polling.cancel(false);
        }
    }

    public StatisticsPoller statistics() {
        return statistics;
    }

    /** A queue session working as the caller. */
    public QueueSession openSession() {
        return factory.openSession();
    }
}
