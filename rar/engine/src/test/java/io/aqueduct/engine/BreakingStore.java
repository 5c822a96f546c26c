package io.aqueduct.engine;

import io.aqueduct.engine.store.Dialect;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLNonTransientConnectionException;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.XAConnection;
import javax.sql.XADataSource;

/**
 * A store whose connections break at chosen moments, as a network failure or a server going away at the
 * wrong moment does (SQLState 08006): in the middle of a commit the database carried out (the commit
 * reaches the database, the connection goes before its answer; armed for one commit of one thread), or
 * when the engine prepares a statement with a given piece of SQL (armed for one statement of any thread).
 */
final class BreakingStore {
    private final AtomicReference<Thread> armed = new AtomicReference<>();
    private volatile String statementFragment;
    private final java.util.concurrent.atomic.AtomicInteger statementsToBreak = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * The next {@code times} statements whose SQL contains {@code fragment} (upper case) fail as if the
     * connection broke (the engine tries its own work once more on a fresh connection: 2 make it fail).
     */
    void breakStatementsContaining(String fragment, int times) {
        statementFragment = fragment;
        statementsToBreak.set(times);
    }

    /**
     * The next statement whose SQL contains {@code fragment} (upper case) runs, and then its connection
     * breaks before the answer arrives: the database did it, the engine cannot know.
     */
    void breakAfterStatementContaining(String fragment) {
        afterFragment = fragment;
        afterToBreak.set(1);
    }

    private volatile String afterFragment;
    private final java.util.concurrent.atomic.AtomicInteger afterToBreak = new java.util.concurrent.atomic.AtomicInteger();

    boolean statementsBroken() {
        return statementsToBreak.get() == 0 && afterToBreak.get() == 0;
    }

    /** The next commit of the calling thread commits and then loses its connection. */
    void breakNextCommitOfThisThread() {
        armed.set(Thread.currentThread());
    }

    /**
     * The server goes away (true) or comes back (false): while it is away no connection opens, every call on an
     * open one fails as a lost connection does, and {@code isValid} says false.
     */
    void serverDown(boolean down) {
        this.down = down;
    }

    private volatile boolean down;

    private static SQLNonTransientConnectionException gone() {
        return new SQLNonTransientConnectionException("The server is away (test)", "08006");
    }

    boolean fired() {
        return armed.get() == null;
    }

    Dialect wrap(Dialect real) {
        return proxy(Dialect.class, real, (method, args) -> method.getName().equals("xaDataSource")
                ? dataSource(real.xaDataSource()) : method.invoke(real, args));
    }

    private XADataSource dataSource(XADataSource real) {
        return proxy(XADataSource.class, real, (method, args) -> {
            if (!method.getName().equals("getXAConnection")) {
                return method.invoke(real, args);
            }
            if (down) {
                throw gone();
            }
            return xaConnection((XAConnection) method.invoke(real, args));
        });
    }

    private XAConnection xaConnection(XAConnection real) {
        return proxy(XAConnection.class, real, (method, args) -> method.getName().equals("getConnection")
                ? connection((Connection) method.invoke(real, args)) : method.invoke(real, args));
    }

    private Connection connection(Connection real) {
        return proxy(Connection.class, real, (method, args) -> {
            if (down && !method.getName().equals("close")) {
                if (method.getName().equals("isValid")) {
                    return false;
                }
                throw gone();
            }
            if (method.getName().equals("commit") && armed.compareAndSet(Thread.currentThread(), null)) {
                real.commit();
                real.close(); // gone before the answer arrived
                throw new SQLNonTransientConnectionException("The connection broke after the commit was sent (test)", "08006");
            }
            if (method.getName().startsWith("prepare") && args != null && args[0] instanceof String sql) {
                breakIfArmed(sql);
                String after = afterFragment;
                if (method.getName().equals("prepareStatement") && after != null
                        && sql.toUpperCase(java.util.Locale.ROOT).contains(after)) {
                    java.sql.PreparedStatement ps = (java.sql.PreparedStatement) method.invoke(real, args);
                    return proxy(java.sql.PreparedStatement.class, ps, (m, a) -> {
                        Object done = m.invoke(ps, a);
                        if (m.getName().startsWith("execute") && afterToBreak.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                            real.close(); // it ran; the answer is lost with the connection
                            throw new SQLNonTransientConnectionException("The connection broke after the statement ran (test): "
                                    + sql, "08006");
                        }
                        return done;
                    });
                }
            }
            Object result = method.invoke(real, args);
            if (method.getName().equals("createStatement")) {
                java.sql.Statement statement = (java.sql.Statement) result;
                return proxy(java.sql.Statement.class, statement, (m, a) -> {
                    if (m.getName().startsWith("execute") || m.getName().equals("addBatch")) {
                        if (a != null && a.length > 0 && a[0] instanceof String sql) {
                            breakIfArmed(sql);
                        }
                    }
                    return m.invoke(statement, a);
                });
            }
            return result;
        });
    }

    private void breakIfArmed(String sql) throws SQLNonTransientConnectionException {
        String fragment = statementFragment;
        if (fragment != null && sql.toUpperCase(java.util.Locale.ROOT).contains(fragment)
                && statementsToBreak.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new SQLNonTransientConnectionException("The connection broke (test): " + sql, "08006");
        }
    }

    private interface Call {
        Object invoke(Method method, Object[] args) throws Throwable;
    }

    private static <T> T proxy(Class<T> type, T real, Call call) {
        InvocationHandler h = (p, method, args) -> {
            try {
                return call.invoke(method, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return type.cast(Proxy.newProxyInstance(BreakingStore.class.getClassLoader(), new Class<?>[] {type}, h));
    }
}
