package io.aqueduct.engine.store;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.HashMap;
import java.util.Map;
import java.util.logging.Logger;
import javax.sql.DataSource;
import javax.sql.XAConnection;

/**
 * The JPA store. Every unit of work runs on the physical connection of the session doing it: the
 * session binds its connection to the thread, and the data source EclipseLink is given hands out
 * that connection, with commit / rollback / close made no-ops so that the session (locally, or
 * the XA transaction manager) alone decides the outcome.
 */
public final class Store implements AutoCloseable {
    private static final ThreadLocal<Connection> BOUND = new ThreadLocal<>();

    private final Dialect dialect;
    private final EntityManagerFactory emf;

    public Store(Dialect dialect) {
        this.dialect = dialect;
        Map<String, Object> props = new HashMap<>();
        props.put("jakarta.persistence.nonJtaDataSource", new BoundDataSource());
        props.put("eclipselink.target-database", dialect.eclipseLinkPlatform());
        props.put("eclipselink.cache.shared.default", "false");
        // one EclipseLink session per store, even with several engines in one JVM
        // EclipseLink's session names are JVM-wide, across class loaders (two adapters in one server)
        props.put("eclipselink.session-name", "aqueduct-" + java.util.UUID.randomUUID());
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(Store.class.getClassLoader());
        try (StoreConnection boot = openRaw()) {
            StoreSchema.bringUpToDate(dialect, boot.connection());
            emf = bind(boot.connection(), () -> {
                EntityManagerFactory f = Persistence.createEntityManagerFactory("aqueduct", props);
                f.createEntityManager().close(); // logs in now, on the bound connection
                return f;
            });
        } catch (SQLException e) {
            throw new AqException(AqError.STORE_FAILURE, "Cannot create the Aqueduct store schema: " + e.getMessage(), e);
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    public Dialect dialect() {
        return dialect;
    }

    /** A new connection of the store's XA data source, with its own entity manager. */
    public StoreConnection open() {
        StoreConnection c = openRaw();
        c.attach(emf.createEntityManager());
        return c;
    }

    private StoreConnection openRaw() {
        try {
            XAConnection xa = dialect.xaDataSource().getXAConnection();
            Connection c = xa.getConnection();
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            return new StoreConnection(this, xa, c);
        } catch (SQLException e) {
            if (dialect.isConnectionLost(e)) {
                throw StoreConnection.unavailable(e);
            }
            String detail = e.getNextException() == null ? e.getMessage() : e.getMessage() + " (" + e.getNextException().getMessage() + ")";
            throw new AqException(AqError.STORE_FAILURE, "Cannot open a connection to the Aqueduct store: " + detail, e);
        }
    }

    interface SqlSupplier<T> {
        T get() throws SQLException;
    }

    /** Runs {@code work} with {@code connection} bound to this thread for EclipseLink. */
    static <T> T bind(Connection connection, SqlSupplier<T> work) throws SQLException {
        Connection previous = BOUND.get();
        BOUND.set(connection);
        try {
            return work.get();
        } finally {
            if (previous == null) {
                BOUND.remove();
            } else {
                BOUND.set(previous);
            }
        }
    }

    @Override
    public void close() {
        emf.close();
        dialect.shutdown();
    }

    /** EclipseLink's view of the bound connection: it may not end the transaction nor close it. */
    private static Connection sessionOwned(Connection real) {
        InvocationHandler h = (proxy, method, args) -> {
            switch (method.getName()) {
                case "close", "commit", "rollback", "setAutoCommit":
                    return null;
                case "getAutoCommit":
                    return false;
                case "isClosed":
                    return real.isClosed();
                case "unwrap":
                    if (((Class<?>) args[0]).isInstance(real)) {
                        return real;
                    }
                    break;
                default:
                    break;
            }
            try {
                return method.invoke(real, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return (Connection) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Connection.class}, h);
    }

    private static final class BoundDataSource implements DataSource {
        @Override
        public Connection getConnection() throws SQLException {
            Connection c = BOUND.get();
            if (c == null) {
                throw new SQLException("No queue session is working on this thread: the Aqueduct store has no connection to use.");
            }
            return sessionOwned(c);
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            return getConnection();
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return false;
        }
    }
}
