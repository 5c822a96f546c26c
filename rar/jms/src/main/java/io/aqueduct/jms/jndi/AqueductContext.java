package io.aqueduct.jms.jndi;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.AqStore;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueInfo;
import io.aqueduct.api.QueueTableInfo;
import io.aqueduct.api.QueueType;
import io.aqueduct.jms.client.AqueductConnectionFactory;
import io.aqueduct.jms.client.AqueductXAConnectionFactory;
import io.aqueduct.jms.destination.AqueductQueue;
import io.aqueduct.jms.destination.AqueductTopic;
import jakarta.jms.InvalidDestinationException;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Hashtable;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.naming.Binding;
import javax.naming.CompositeName;
import javax.naming.Context;
import javax.naming.InvalidNameException;
import javax.naming.Name;
import javax.naming.NameClassPair;
import javax.naming.NameNotFoundException;
import javax.naming.NameParser;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.NotContextException;
import javax.naming.OperationNotSupportedException;

/**
 * A read-only, flat JNDI context: the connection factories and destinations its environment
 * declares, and {@code dynamicQueues/<AQ queue>} / {@code dynamicTopics/<AQ queue>}. The bindings
 * are fixed when it is created; binding, unbinding, renaming and subcontexts are refused.
 */
final class AqueductContext implements Context {
    private final Hashtable<Object, Object> environment;
    private final JndiEnvironment env;
    private final SharedStores.Lease lease;
    private final AqStore store;
    private final Map<String, Object> bindings = new LinkedHashMap<>();
    /** Declared destinations whose queue this context has already made sure of. */
    private final Set<String> ensured = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    AqueductContext(Hashtable<?, ?> environment, JndiEnvironment env, SharedStores.Lease lease) throws NamingException {
        this.environment = environment == null ? new Hashtable<>() : new Hashtable<>(environment);
        this.env = env;
        this.lease = lease;
        this.store = lease.store();
        for (JndiEnvironment.Factory f : env.factories.values()) {
            bindings.put(f.jndiName(), f.xa() ? new AqueductXAConnectionFactory(store, env.users(f.user()), f.clientId())
                    : new AqueductConnectionFactory(store, env.users(f.user()), f.clientId()));
        }
        for (JndiEnvironment.Destination d : env.destinations.values()) {
            bindings.put(d.jndiName(), destination(d.topic(), d.aqName()));
        }
    }

    // ------------------------------------------------------------------ lookup

    @Override
    public Object lookup(String name) throws NamingException {
        checkOpen();
        if (name == null) {
            throw new InvalidNameException("Look up a name, not null.");
        }
        if (name.isEmpty()) {
            return this; // read-only and thread-safe: this context is as good as a new instance of it
        }
        Object bound = bindings.get(name);
        if (bound != null) {
            JndiEnvironment.Destination d = env.destinations.get(name);
            if (d != null) {
                ensure(d);
            }
            return bound;
        }
        if (name.startsWith(JndiEnvironment.DYNAMIC_QUEUES) || name.startsWith(JndiEnvironment.DYNAMIC_TOPICS)) {
            boolean topic = name.startsWith(JndiEnvironment.DYNAMIC_TOPICS);
            return destination(topic, name.substring((topic ? JndiEnvironment.DYNAMIC_TOPICS : JndiEnvironment.DYNAMIC_QUEUES).length()));
        }
        NameNotFoundException e = new NameNotFoundException("'" + name + "' is not bound in this Aqueduct context; it binds "
                + String.join(", ", bindings.keySet()) + ", and " + JndiEnvironment.DYNAMIC_QUEUES + "<AQ queue> and "
                + JndiEnvironment.DYNAMIC_TOPICS + "<AQ queue> for any queue by its AQ name.");
        e.setRemainingName(new CompositeName().add(name));
        throw e;
    }

    @Override
    public Object lookup(Name name) throws NamingException {
        return lookup(name == null ? null : name.toString());
    }

    @Override
    public Object lookupLink(String name) throws NamingException {
        return lookup(name); // no links here
    }

    @Override
    public Object lookupLink(Name name) throws NamingException {
        return lookup(name);
    }

    private static Object destination(boolean topic, String aqName) throws NamingException {
        try {
            return topic ? new AqueductTopic(aqName) : new AqueductQueue(aqName);
        } catch (InvalidDestinationException e) {
            InvalidNameException n = new InvalidNameException(e.getMessage());
            n.setRootCause(e);
            throw n;
        }
    }

    /**
     * Makes sure a destination declared with {@code create = true} exists: creates its queue table
     * (when missing) and queue, and starts it; an existing queue is used as it is, but must be of
     * the declared kind. Serialized per store, so contexts sharing it create a queue once.
     */
    private void ensure(JndiEnvironment.Destination d) throws NamingException {
        if (!d.create() || ensured.contains(d.jndiName())) {
            return;
        }
        String key = (d.topic() ? JndiEnvironment.TOPIC : JndiEnvironment.QUEUE) + d.jndiName();
        synchronized (store) {
            if (ensured.contains(d.jndiName())) {
                return;
            }
            try {
                QueueAdmin admin = store.admin();
                QueueInfo queue = queue(admin, d.aqName());
                if (queue == null) {
                    QueueTableInfo table = table(admin, d.queueTable());
                    if (table == null) {
                        try {
                            admin.createQueueTable(d.queueTable(), d.tableProperties());
                        } catch (AqException e) {
                            if (e.errorCode() != AqError.QUEUE_TABLE_EXISTS) {
                                throw e;
                            }
                            // another JVM on the shared store created it meanwhile: checked below
                        }
                        table = table(admin, d.queueTable());
                    }
                    checkKind(key, d, table, "queue table " + table.owner() + "." + table.name());
                    try {
                        admin.createQueue(d.aqName(), d.queueTable(), d.queueProperties());
                        admin.startQueue(d.aqName(), true, true); // AQ creates queues stopped
                    } catch (AqException e) {
                        if (e.errorCode() != AqError.QUEUE_EXISTS) {
                            throw e;
                        }
                    }
                    queue = queue(admin, d.aqName());
                }
                QueueTableInfo table = admin.queueTable(queue.owner() + "." + queue.queueTable());
                // an exception queue is consumed as a Queue, whatever its table
                if (d.topic() || queue.queueType() != QueueType.EXCEPTION) {
                    checkKind(key, d, table, "queue " + queue.owner() + "." + queue.name());
                }
            } catch (AqException e) {
                NamingException n = new NamingException("Cannot create the " + (d.topic() ? "topic" : "queue") + " of " + key
                        + " (" + d.aqName() + "): " + e.getMessage());
                n.setRootCause(e);
                throw n;
            }
            ensured.add(d.jndiName());
        }
    }

    private static void checkKind(String key, JndiEnvironment.Destination d, QueueTableInfo table, String what)
            throws NamingException {
        if (table.multipleConsumers() != d.topic()) {
            throw new NamingException(key + " is a " + (d.topic() ? "topic" : "queue") + ", but the " + what
                    + " is a " + (table.multipleConsumers() ? "multi" : "single") + "-consumer queue: a JMS "
                    + (d.topic() ? "Topic needs a multi-consumer" : "Queue needs a single-consumer")
                    + " one. Name another queue" + (d.queueTable() != null ? " or queue table" : "") + ".");
        }
        if (table.payloadType() != PayloadType.RAW) {
            throw new NamingException(key + ": the " + what + " holds " + table.payloadType() + " payloads; JMS messages"
                    + " are stored as RAW. Name another queue or queue table.");
        }
    }

    private static QueueInfo queue(QueueAdmin admin, String name) {
        try {
            return admin.queue(name);
        } catch (AqException e) {
            if (e.errorCode() == AqError.QUEUE_NOT_FOUND) {
                return null;
            }
            throw e;
        }
    }

    private static QueueTableInfo table(QueueAdmin admin, String name) {
        try {
            return admin.queueTable(name);
        } catch (AqException e) {
            if (e.errorCode() == AqError.QUEUE_TABLE_NOT_FOUND) {
                return null;
            }
            throw e;
        }
    }

    // ------------------------------------------------------------------ listing

    @Override
    public NamingEnumeration<NameClassPair> list(String name) throws NamingException {
        checkListable(name);
        List<NameClassPair> pairs = new ArrayList<>();
        for (Map.Entry<String, Object> b : bindings.entrySet()) {
            pairs.add(new NameClassPair(b.getKey(), b.getValue().getClass().getName()));
        }
        return new Enumeration<>(pairs);
    }

    @Override
    public NamingEnumeration<NameClassPair> list(Name name) throws NamingException {
        return list(name == null ? null : name.toString());
    }

    /** The bound objects; listing creates no queue (a declared one is created at its lookup). */
    @Override
    public NamingEnumeration<Binding> listBindings(String name) throws NamingException {
        checkListable(name);
        List<Binding> list = new ArrayList<>();
        for (Map.Entry<String, Object> b : bindings.entrySet()) {
            list.add(new Binding(b.getKey(), b.getValue()));
        }
        return new Enumeration<>(list);
    }

    @Override
    public NamingEnumeration<Binding> listBindings(Name name) throws NamingException {
        return listBindings(name == null ? null : name.toString());
    }

    /** Only this context can be listed: it has no subcontexts (the dynamic prefixes name no list). */
    private void checkListable(String name) throws NamingException {
        checkOpen();
        if (name == null) {
            throw new InvalidNameException("List a name, not null (\"\" is this context).");
        }
        if (!name.isEmpty()) {
            if (bindings.containsKey(name)) {
                throw new NotContextException("'" + name + "' is a " + bindings.get(name).getClass().getSimpleName()
                        + ", not a context: list \"\" instead.");
            }
            lookup(name); // NameNotFoundException naming what is bound
            throw new NotContextException("'" + name + "' is not a context: list \"\" instead.");
        }
    }

    // ------------------------------------------------------------------ read-only

    private static OperationNotSupportedException readOnly(String operation) {
        return new OperationNotSupportedException("This Aqueduct JNDI context is read-only: " + operation
                + " is not supported. Declare names in jndi.properties (or the environment of the InitialContext).");
    }

    @Override
    public void bind(Name name, Object obj) throws NamingException {
        throw readOnly("bind");
    }

    @Override
    public void bind(String name, Object obj) throws NamingException {
        throw readOnly("bind");
    }

    @Override
    public void rebind(Name name, Object obj) throws NamingException {
        throw readOnly("rebind");
    }

    @Override
    public void rebind(String name, Object obj) throws NamingException {
        throw readOnly("rebind");
    }

    @Override
    public void unbind(Name name) throws NamingException {
        throw readOnly("unbind");
    }

    @Override
    public void unbind(String name) throws NamingException {
        throw readOnly("unbind");
    }

    @Override
    public void rename(Name oldName, Name newName) throws NamingException {
        throw readOnly("rename");
    }

    @Override
    public void rename(String oldName, String newName) throws NamingException {
        throw readOnly("rename");
    }

    @Override
    public void destroySubcontext(Name name) throws NamingException {
        throw readOnly("destroySubcontext");
    }

    @Override
    public void destroySubcontext(String name) throws NamingException {
        throw readOnly("destroySubcontext");
    }

    @Override
    public Context createSubcontext(Name name) throws NamingException {
        throw readOnly("createSubcontext");
    }

    @Override
    public Context createSubcontext(String name) throws NamingException {
        throw readOnly("createSubcontext");
    }

    // ------------------------------------------------------------------ names and environment

    private static final NameParser PARSER = CompositeName::new;

    @Override
    public NameParser getNameParser(Name name) {
        return PARSER;
    }

    @Override
    public NameParser getNameParser(String name) {
        return PARSER;
    }

    @Override
    public Name composeName(Name name, Name prefix) throws NamingException {
        return ((Name) prefix.clone()).addAll(name);
    }

    @Override
    public String composeName(String name, String prefix) throws NamingException {
        return composeName(new CompositeName(name), new CompositeName(prefix)).toString();
    }

    /** Kept in this context's environment (getEnvironment shows it) but binds nothing: the bindings are fixed. */
    @Override
    public Object addToEnvironment(String propName, Object propVal) {
        return environment.put(propName, propVal);
    }

    @Override
    public Object removeFromEnvironment(String propName) {
        return environment.remove(propName);
    }

    @Override
    public Hashtable<?, ?> getEnvironment() {
        return new Hashtable<>(environment);
    }

    @Override
    public String getNameInNamespace() {
        return "";
    }

    /** Gives the store back: the last context of a store closes it. Closing twice does nothing. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            lease.release();
        }
    }

    private void checkOpen() throws NamingException {
        if (closed) {
            throw new NamingException("This Aqueduct JNDI context is closed.");
        }
    }

    /** A NamingEnumeration over a list made beforehand. */
    private static final class Enumeration<T> implements NamingEnumeration<T> {
        private final Iterator<T> items;

        Enumeration(List<T> items) {
            this.items = Collections.unmodifiableList(items).iterator();
        }

        @Override
        public T next() {
            return nextElement();
        }

        @Override
        public boolean hasMore() {
            return items.hasNext();
        }

        @Override
        public void close() {
            // nothing held
        }

        @Override
        public boolean hasMoreElements() {
            return items.hasNext();
        }

        @Override
        public T nextElement() {
            if (!items.hasNext()) {
                throw new NoSuchElementException();
            }
            return items.next();
        }
    }
}
