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
 * A store whose connection can break in the middle of a commit the database carried out: the commit
 * reaches the database, and then the connection goes before its answer (SQLState 08006), as a network
 * failure at the wrong moment does. Armed for one commit of one thread.
 */
final class BreakingCommits {
    private final AtomicReference<Thread> armed = new AtomicReference<>();

    /** The next commit of the calling thread commits and then loses its connection. */
    void breakNextCommitOfThisThread() {
        armed.set(Thread.currentThread());
    }

    boolean fired() {
        return armed.get() == null;
    }

    Dialect wrap(Dialect real) {
        return proxy(Dialect.class, real, (method, args) -> method.getName().equals("xaDataSource")
                ? dataSource(real.xaDataSource()) : method.invoke(real, args));
    }

    private XADataSource dataSource(XADataSource real) {
        return proxy(XADataSource.class, real, (method, args) -> method.getName().equals("getXAConnection")
                ? xaConnection((XAConnection) method.invoke(real, args)) : method.invoke(real, args));
    }

    private XAConnection xaConnection(XAConnection real) {
        return proxy(XAConnection.class, real, (method, args) -> method.getName().equals("getConnection")
                ? connection((Connection) method.invoke(real, args)) : method.invoke(real, args));
    }

    private Connection connection(Connection real) {
        return proxy(Connection.class, real, (method, args) -> {
            if (method.getName().equals("commit") && armed.compareAndSet(Thread.currentThread(), null)) {
                real.commit();
                real.close(); // gone before the answer arrived
                throw new SQLNonTransientConnectionException("The connection broke after the commit was sent (test)", "08006");
            }
            return method.invoke(real, args);
        });
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
        return type.cast(Proxy.newProxyInstance(BreakingCommits.class.getClassLoader(), new Class<?>[] {type}, h));
    }
}
