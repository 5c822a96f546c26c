package io.aqueduct.connector;

import io.aqueduct.connector.inbound.DeliveryActivation;
import io.aqueduct.connector.inbound.EndpointSpec;
import io.aqueduct.engine.AqueductEngine;
import io.aqueduct.engine.session.EngineSession;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.Connector;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterInternalException;
import jakarta.resource.spi.TransactionSupport;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.transaction.xa.XAResource;

/**
 * The Aqueduct resource adapter: starts the queue engine on its store when the adapter starts
 * (its long-running loops run as work of the adapter's WorkManager: the time manager and the
 * propagation loop, and on a shared store the attempt ledger and the three cross-node signal loops,
 * six at most), hands queue sessions to the outbound connection factories and delivers messages
 * to message-driven beans (one more Work per MDB session).
 */
@Connector(
        displayName = "Aqueduct",
        description = "Oracle-Streams-AQ-style advanced queuing: XA-enlisted queue sessions and transactional MDB delivery,"
                + " stored in a relational database (embedded Derby by default).",
        vendorName = "Aqueduct",
        eisType = "Advanced queuing",
        version = "0.1",
        transactionSupport = TransactionSupport.TransactionSupportLevel.XATransaction)
public class AqResourceAdapter implements ResourceAdapter {
    private static final Logger LOG = Logger.getLogger(AqResourceAdapter.class.getName());

    @ConfigProperty(description = "Directory of the embedded Derby database that stores the queues. Empty: "
            + "<instance root>/aqueduct/store in a Payara Server instance (the system property com.sun.aas.instanceRoot) "
            + "and in Payara Micro started with --rootdir; else ~/.aqueduct/store (also in Payara Micro without "
            + "--rootdir, whose temporary directory is deleted when it stops). One adapter per directory.", defaultValue = "")
    private String storeDirectory = "";

    @ConfigProperty(description = "JDBC URL of a shared store: PostgreSQL (jdbc:postgresql://host/db) or MariaDB "
            + "(jdbc:mariadb://host/db), which several servers may share. Empty: the system property "
            + "aqueduct.storeUrl (with aqueduct.storeUser, aqueduct.storePassword), else the embedded Derby store in "
            + "storeDirectory. PostgreSQL needs max_prepared_transactions > 0 (XA).", defaultValue = "")
    private String storeUrl = "";

    @ConfigProperty(description = "User of the shared store (storeUrl).", defaultValue = "")
    private String storeUser = "";

    @ConfigProperty(description = "Password of the shared store's user (storeUrl).", defaultValue = "", confidential = true)
    private String storePassword = "";

    @ConfigProperty(description = "Schema of queue and queue table names given without one. Empty: the store's "
            + "default schema (APP on Derby, AQ on PostgreSQL and MariaDB).", defaultValue = "")
    private String defaultSchema = "";

    @ConfigProperty(description = "User recorded as enqueue / dequeue user when a session names none.",
            defaultValue = "AQUEDUCT")
    private String user = "AQUEDUCT";

    @ConfigProperty(description = "Users who hold every AQ privilege (enqueue, dequeue and administration of every "
            + "queue) besides the adapter's user, comma-separated, e.g. 'OPS, BATCH'; every other user works with what "
            + "was granted to it (grantQueuePrivilege / grantSystemPrivilege) or owns (a user named like a queue's "
            + "schema). Empty: the system property aqueduct.administrators, if set.", defaultValue = "")
    private String administrators = "";

    @ConfigProperty(description = "Run the time manager (delay, expiration, retry delay, retention) and the "
            + "propagation schedules. Turn it off only on a node that must not move messages in time (nor propagate "
            + "them).", defaultValue = "true")
    private Boolean timeManagerEnabled = Boolean.TRUE;

    @ConfigProperty(description = "Queue tables and queues to create (and start) when the adapter starts, if missing: "
            + "definitions separated by ';', e.g. 'table OE.ORDERS_QTAB payload=JSON sort=priority,enq_time; "
            + "queue OE.BOOKED_ORDERS table=OE.ORDERS_QTAB max_retries=4 retry_delay=43200'; also subscribers, "
            + "transformations, database links, propagation schedules ('schedule OE.BOOKED_ORDERS latency=0'), AQ agents "
            + "('agent JOHN http=true db_users=CBADM') and privileges ('grant ENQUEUE queue=OE.BOOKED_ORDERS to=CBADM'). "
            + "Empty: the system property aqueduct.queueDefinitions, if set.", defaultValue = "")
    private String queueDefinitions = "";

    @ConfigProperty(description = "Database links (names of other Aqueduct stores that propagation reaches) to create, "
            + "or alter, when the adapter starts, before the queueDefinitions: 'link <name> url=<JDBC URL or Derby "
            + "directory> user=<user> password=<password>', separated by ';'. Kept here rather than in queueDefinitions "
            + "so that the passwords stay hidden. Empty: the system property aqueduct.databaseLinks, if set.",
            defaultValue = "", confidential = true)
    private String databaseLinks = "";

    @ConfigProperty(description = "Classes OBJECT payloads may hold besides the queue table's object type and its "
            + "package, the JDK's value classes and primitive arrays (or may not, with '!'), in the JDK's "
            + "ObjectInputFilter syntax, e.g. 'com.example.shared.*;!com.example.orders.Internal'. Anything else is "
            + "refused when a payload is read back.", defaultValue = "")
    private String deserializationFilter = "";

    @ConfigProperty(description = "The largest payload an enqueue accepts, in stored bytes; larger ones are refused "
            + "(AQ-24097) before anything is written. Default 64 MiB.", defaultValue = "67108864")
    private Long maxPayloadBytes = AqueductEngine.Builder.DEFAULT_MAX_PAYLOAD_BYTES;

    @ConfigProperty(description = "The memory the buffered messages (delivery mode BUFFERED, kept in this server's "
            + "memory and lost when it stops) may take together, in bytes; a buffered enqueue beyond it waits for "
            + "bufferedEnqueueWaitMillis, then fails (AQ-25307). Default 64 MiB.", defaultValue = "67108864")
    private Long maxBufferedBytes = AqueductEngine.Builder.DEFAULT_MAX_BUFFERED_BYTES;

    @ConfigProperty(description = "How long a buffered enqueue waits, in milliseconds, for dequeues to free memory "
            + "when maxBufferedBytes is reached before it fails with AQ-25307; 0: it fails at once. Default 5000.",
            defaultValue = "5000")
    private Long bufferedEnqueueWaitMillis = AqueductEngine.Builder.DEFAULT_BUFFERED_ENQUEUE_WAIT_MILLIS;

    @ConfigProperty(description = "Shared stores only: where this server listens for the other servers' wake-ups (UDP "
            + "datagrams; the address is registered in the store, where the others find it): host, host:port, :port or "
            + "[IPv6 address]:port, the host being the address the other servers reach this one at; 'off' for the "
            + "database's signal only. Empty: the system property aqueduct.signalAddress, else an ephemeral port on the "
            + "address this host reaches the database server from. Datagrams that cannot arrive (a firewall) cost latency "
            + "only: the database's signal wakes the servers too.", defaultValue = "")
    private String signalAddress = "";

    @ConfigProperty(description = "SMTP server (host name) of mailto: notifications. Empty: none, and mailto: "
            + "notifications fail (counted in their registration and retried) on this server.", defaultValue = "")
    private String mailHost = "";

    @ConfigProperty(description = "SMTP port of mailHost (25; usually 587 with mailStartTls).", defaultValue = "25")
    private Integer mailPort = 25;

    @ConfigProperty(description = "Sender address of mailto: notifications. Empty: Jakarta Mail's default (mail.from,"
            + " else the JVM's user at the local host).", defaultValue = "")
    private String mailFrom = "";

    @ConfigProperty(description = "SMTP login user of mailHost. Empty: no login.", defaultValue = "")
    private String mailUser = "";

    @ConfigProperty(description = "SMTP login password of mailUser.", defaultValue = "", confidential = true)
    private String mailPassword = "";

    @ConfigProperty(description = "Require STARTTLS on the SMTP connection to mailHost.", defaultValue = "false")
    private Boolean mailStartTls = Boolean.FALSE;

    @ConfigProperty(description = "Seconds a notification MDB (or java: listener) may take for one notification before"
            + " the delivery counts as failed and is retried after the back-off (at least 1).", defaultValue = "30")
    private Integer notificationListenerTimeoutSeconds = 30;

    private transient volatile AqueductEngine engine;
    private transient BootstrapContext context;
    private final transient Map<ActivationKey, DeliveryActivation> activations = new ConcurrentHashMap<>();
    /** Notification MDBs by listener name. */
    private final transient Map<String, io.aqueduct.connector.inbound.NotificationActivation> notificationActivations =
            new ConcurrentHashMap<>();
    /** One session whose XAResource serves the transaction manager's recovery; opened on demand. */
    private transient EngineSession recoverySession;
    private transient XAResource recoveryResource;

    private record ActivationKey(MessageEndpointFactory factory, ActivationSpec spec) {
    }

    @Override
    public void start(BootstrapContext ctx) throws ResourceAdapterInternalException {
        this.context = ctx;
        WorkManager workManager = ctx.getWorkManager();
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(AqResourceAdapter.class.getClassLoader());
        try {
            AqueductEngine.Builder b = AqueductEngine.builder().user(user)
                    .defaultSchema(blankToNull(defaultSchema)).timeManager(Boolean.TRUE.equals(timeManagerEnabled))
                    .deserializationFilter(blankToNull(deserializationFilter))
                    .maxPayloadBytes(maxPayloadBytes == null ? AqueductEngine.Builder.DEFAULT_MAX_PAYLOAD_BYTES : maxPayloadBytes)
                    .maxBufferedBytes(maxBufferedBytes == null ? AqueductEngine.Builder.DEFAULT_MAX_BUFFERED_BYTES : maxBufferedBytes)
                    .bufferedEnqueueWaitMillis(bufferedEnqueueWaitMillis == null
                            ? AqueductEngine.Builder.DEFAULT_BUFFERED_ENQUEUE_WAIT_MILLIS : bufferedEnqueueWaitMillis);
            b.administrators(administrators == null || administrators.isBlank()
                    ? System.getProperty("aqueduct.administrators") : administrators);
            if (blankToNull(signalAddress) != null) {
                b.signalAddress(signalAddress.trim()); // else the engine reads aqueduct.signalAddress
            }
            if (blankToNull(mailHost) != null) {
                b.mail(mailHost.trim(), mailPort == null ? 25 : mailPort, blankToNull(mailFrom), blankToNull(mailUser),
                        mailPassword == null || mailPassword.isEmpty() ? null : mailPassword, Boolean.TRUE.equals(mailStartTls));
            }
            if (notificationListenerTimeoutSeconds != null) {
                if (notificationListenerTimeoutSeconds < 1) {
                    throw new ResourceAdapterInternalException("Aqueduct: notificationListenerTimeoutSeconds is "
                            + notificationListenerTimeoutSeconds + "; give at least 1 second.");
                }
                b.notificationListenerTimeout(java.time.Duration.ofSeconds(notificationListenerTimeoutSeconds));
            }
            if (storeUrl == null || storeUrl.isBlank()) {
                // Payara Micro and scripted set-ups may give the shared store as system properties
                storeUrl = System.getProperty("aqueduct.storeUrl", "");
                storeUser = blankToNull(storeUser) == null ? System.getProperty("aqueduct.storeUser", "") : storeUser;
                storePassword = blankToNull(storePassword) == null ? System.getProperty("aqueduct.storePassword", "") : storePassword;
            }
            if (storeUrl == null || storeUrl.isBlank()) {
                b.derbyDirectory(storePath());
            } else {
                b.jdbc(storeUrl.trim(), blankToNull(storeUser), blankToNull(storePassword));
            }
            // the time manager, propagation, notifications, the cross-node signals and the attempt ledger: long Work
            // (up to seven, three on Derby; as many again per database link to a store this JVM has not open), supervised by
            // the container; and up to four notification workers while notifications are being delivered
            b.backgroundExecutor(task -> startWork(workManager, task));
            // both parsed before the store opens: a malformed definition creates nothing
            QueueDefinitions links = QueueDefinitions.parseLinks(databaseLinks == null || databaseLinks.isBlank()
                    ? System.getProperty("aqueduct.databaseLinks") : databaseLinks);
            QueueDefinitions definitions = QueueDefinitions.parse(queueDefinitions == null || queueDefinitions.isBlank()
                    ? System.getProperty("aqueduct.queueDefinitions") : queueDefinitions);
            if ((storeUrl == null || storeUrl.isBlank()) && (storeDirectory == null || storeDirectory.isBlank())
                    && System.getProperty("com.sun.aas.instanceRoot") != null
                    && isMicroTemporaryRoot(System.getProperty("com.sun.aas.instanceRoot"))) {
                LOG.warning(() -> "Aqueduct: Payara Micro runs without --rootdir, in the temporary directory "
                        + System.getProperty("com.sun.aas.instanceRoot") + ", which it deletes when it stops; the store is"
                        + " therefore in " + storePath() + ". Start Micro with --rootdir <directory> (the store is then"
                        + " <directory>/aqueduct/store) or set the adapter's storeDirectory.");
            }
            boolean derbyExisted = (storeUrl == null || storeUrl.isBlank()) && Files.isDirectory(storePath());
            engine = b.start();
            int tablesBefore = engine.admin().queueTables().size();
            int queuesBefore = engine.admin().queues().size();
            LOG.info(() -> "Aqueduct opened the store " + storeDescription() + (storeUrl == null || storeUrl.isBlank()
                    ? (derbyExisted ? " (existing)" : " (new)") : "") + ": " + tablesBefore + " queue table(s), "
                    + queuesBefore + " queue(s)");
            try {
                links.apply(engine.admin(), engine.defaultSchema());
                definitions.apply(engine.admin(), engine.defaultSchema());
            } catch (RuntimeException e) {
                engine.close();
                engine = null;
                throw e;
            }
            int tablesCreated = engine.admin().queueTables().size() - tablesBefore;
            int queuesCreated = engine.admin().queues().size() - queuesBefore;
            if (definitions.size() == 0) {
                LOG.info("Aqueduct has no queue definitions (the queueDefinitions property and the system property"
                        + " aqueduct.queueDefinitions are empty): it creates no queues");
            } else {
                LOG.info(() -> "Aqueduct applied " + definitions.size() + " queue definition(s): " + tablesCreated
                        + " queue table(s) and " + queuesCreated + " queue(s) created now, the others existed");
            }
            LOG.info(() -> "Aqueduct started on the store " + storeDescription());
        } catch (RuntimeException e) {
            // two adapters in one server (the EAR's and a standalone RAR) default to the same Derby directory
            String hint = String.valueOf(e.getMessage()).contains("already open by another Aqueduct engine")
                    ? " Set this adapter's storeDirectory config property to a directory of its own (asadmin"
                    + " create-resource-adapter-config --property storeDirectory=<directory> <adapter name>), or storeUrl."
                    : "";
            throw new ResourceAdapterInternalException("Aqueduct could not start its store " + storeDescription() + ": "
                    + e.getMessage() + hint, e);
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    static void startWork(WorkManager workManager, Runnable task) {
        try {
            workManager.startWork(new Work() {
                @Override
                public void run() {
                    task.run();
                }

                @Override
                public void release() {
                    // the engine stops its loops when the adapter stops
                }
            }, WorkManager.INDEFINITE, null, null);
        } catch (WorkException e) {
            throw new IllegalStateException("The WorkManager refused Aqueduct's work: " + e.getMessage(), e);
        }
    }

    private String storeDescription() {
        return storeUrl == null || storeUrl.isBlank() ? "(Derby) in " + storePath() : "at " + storeUrl.trim();
    }

    private Path storePath() {
        if (storeDirectory != null && !storeDirectory.isBlank()) {
            return Path.of(storeDirectory);
        }
        return defaultStorePath(System.getProperty("com.sun.aas.instanceRoot"), System.getProperty("user.home"));
    }

    /**
     * {@code <instanceRoot>/aqueduct/store} in a Payara Server instance, or Payara Micro started with
     * {@code --rootdir}; {@code ~/.aqueduct/store} outside Payara, and in a Payara Micro whose instance
     * root is its temporary runtime directory ({@code payaramicro-rt<digits>tmp}), which Micro deletes
     * when it stops.
     */
    static Path defaultStorePath(String instanceRoot, String userHome) {
        if (instanceRoot == null || isMicroTemporaryRoot(instanceRoot)) {
            return Path.of(userHome, ".aqueduct", "store");
        }
        return Path.of(instanceRoot, "aqueduct", "store");
    }

    static boolean isMicroTemporaryRoot(String instanceRoot) {
        Path name = Path.of(instanceRoot).getFileName();
        return name != null && name.toString().matches("payaramicro-rt-?\\d+tmp");
    }

    /** In-flight deliveries finish (or roll back), then the engine stops and Derby shuts down. */
    @Override
    public void stop() {
        for (DeliveryActivation a : activations.values()) {
            a.stop();
        }
        activations.clear();
        for (var n : notificationActivations.values()) {
            n.stop();
        }
        notificationActivations.clear();
        synchronized (this) {
            if (recoverySession != null) {
                try {
                    recoverySession.close();
                } catch (RuntimeException e) {
                    LOG.log(Level.FINE, "closing the recovery session", e);
                }
                recoverySession = null;
                recoveryResource = null;
            }
        }
        AqueductEngine e = engine;
        engine = null;
        if (e != null) {
            e.close();
            LOG.info("Aqueduct stopped; its store is shut down");
        }
    }

    @Override
    public void endpointActivation(MessageEndpointFactory factory, ActivationSpec spec) throws ResourceException {
        if (spec instanceof io.aqueduct.connector.inbound.AqNotificationActivationSpec notifications) {
            activateNotifications(factory, notifications);
            return;
        }
        if (!(spec instanceof EndpointSpec endpoint)) {
            throw new ResourceException("Aqueduct activates only its own activation specs, not " + spec.getClass().getName());
        }
        endpoint.validate();
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(AqResourceAdapter.class.getClassLoader());
        try {
            DeliveryActivation activation = new DeliveryActivation(engine(), context.getWorkManager(), factory, endpoint);
            activation.start();
            activations.put(new ActivationKey(factory, spec), activation);
            LOG.info(() -> "Aqueduct delivers " + activation.queue() + " to " + factory.getEndpointClass().getName()
                    + " with " + endpoint.sessions() + " session(s)");
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    /** A notification MDB: one bean per listener name in this adapter (a second one would silently replace the first). */
    private void activateNotifications(MessageEndpointFactory factory,
            io.aqueduct.connector.inbound.AqNotificationActivationSpec spec) throws ResourceException {
        spec.validate();
        var activation = new io.aqueduct.connector.inbound.NotificationActivation(engine(), factory, spec);
        var existing = notificationActivations.putIfAbsent(activation.listenerName(), activation);
        if (existing != null) {
            throw new ResourceException("Another bean already receives the notifications of java:" + activation.listenerName()
                    + ": give " + factory.getEndpointClass().getName() + " a listenerName of its own.");
        }
        try {
            activation.start();
        } catch (ResourceException | RuntimeException e) {
            notificationActivations.remove(activation.listenerName(), activation);
            throw e;
        }
        LOG.info(() -> "Aqueduct delivers the notifications of java:" + activation.listenerName() + " to "
                + factory.getEndpointClass().getName());
    }

    @Override
    public void endpointDeactivation(MessageEndpointFactory factory, ActivationSpec spec) {
        if (spec instanceof io.aqueduct.connector.inbound.AqNotificationActivationSpec notifications) {
            String name = notifications.getListenerName() == null ? null : notifications.getListenerName().trim();
            var activation = name == null ? null : notificationActivations.remove(name);
            if (activation != null) {
                activation.stop();
            }
            return;
        }
        DeliveryActivation a = activations.remove(new ActivationKey(factory, spec));
        if (a != null) {
            a.stop();
        }
    }

    /**
     * The store's XAResource, for the transaction manager's recovery: all activations deliver from
     * the one store database, so every spec gets the same real resource (never null, never empty
     * when specs are given). Its {@code recover()} is the database's.
     */
    @Override
    public XAResource[] getXAResources(ActivationSpec[] specs) throws ResourceException {
        int n = specs == null ? 0 : specs.length;
        XAResource[] out = new XAResource[n];
        if (n == 0) {
            return out;
        }
        XAResource xa;
        synchronized (this) {
            if (recoveryResource != null && recoverySession.connectionGone()) {
                // the store restarted since the last recovery scan: a fresh session, or recover() fails for good
                recoverySession.close();
                recoveryResource = null;
            }
            if (recoveryResource == null) {
                try {
                    recoverySession = engine().openSession(user);
                    recoveryResource = recoverySession.xaResource();
                } catch (io.aqueduct.api.AqException e) {
                    throw new ResourceException("Aqueduct cannot reach its store for XA recovery now (" + e.getMessage()
                            + "); the transaction manager's next recovery scan tries again.", e);
                }
            }
            xa = recoveryResource;
        }
        java.util.Arrays.fill(out, xa);
        return out;
    }

    /** The running engine; fails when the adapter is not started. */
    public AqueductEngine engine() throws ResourceException {
        AqueductEngine e = engine;
        if (e == null || e.isClosed()) {
            throw new ResourceException("The Aqueduct resource adapter is not started.");
        }
        return e;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    public String getStoreDirectory() {
        return storeDirectory;
    }

    public void setStoreDirectory(String storeDirectory) {
        this.storeDirectory = storeDirectory;
    }

    public String getStoreUrl() {
        return storeUrl;
    }

    public void setStoreUrl(String storeUrl) {
        this.storeUrl = storeUrl;
    }

    public String getStoreUser() {
        return storeUser;
    }

    public void setStoreUser(String storeUser) {
        this.storeUser = storeUser;
    }

    public String getStorePassword() {
        return storePassword;
    }

    public void setStorePassword(String storePassword) {
        this.storePassword = storePassword;
    }

    public Long getMaxPayloadBytes() {
        return maxPayloadBytes;
    }

    public void setMaxPayloadBytes(Long maxPayloadBytes) {
        this.maxPayloadBytes = maxPayloadBytes;
    }

    public Long getMaxBufferedBytes() {
        return maxBufferedBytes;
    }

    public void setMaxBufferedBytes(Long maxBufferedBytes) {
        this.maxBufferedBytes = maxBufferedBytes;
    }

    public Long getBufferedEnqueueWaitMillis() {
        return bufferedEnqueueWaitMillis;
    }

    public void setBufferedEnqueueWaitMillis(Long bufferedEnqueueWaitMillis) {
        this.bufferedEnqueueWaitMillis = bufferedEnqueueWaitMillis;
    }

    public String getMailHost() {
        return mailHost;
    }

    public void setMailHost(String mailHost) {
        this.mailHost = mailHost;
    }

    public Integer getNotificationListenerTimeoutSeconds() {
        return notificationListenerTimeoutSeconds;
    }

    public void setNotificationListenerTimeoutSeconds(Integer notificationListenerTimeoutSeconds) {
        this.notificationListenerTimeoutSeconds = notificationListenerTimeoutSeconds;
    }

    public Integer getMailPort() {
        return mailPort;
    }

    public void setMailPort(Integer mailPort) {
        this.mailPort = mailPort;
    }

    public String getMailFrom() {
        return mailFrom;
    }

    public void setMailFrom(String mailFrom) {
        this.mailFrom = mailFrom;
    }

    public String getMailUser() {
        return mailUser;
    }

    public void setMailUser(String mailUser) {
        this.mailUser = mailUser;
    }

    public String getMailPassword() {
        return mailPassword;
    }

    public void setMailPassword(String mailPassword) {
        this.mailPassword = mailPassword;
    }

    public Boolean getMailStartTls() {
        return mailStartTls;
    }

    public void setMailStartTls(Boolean mailStartTls) {
        this.mailStartTls = mailStartTls;
    }

    public String getSignalAddress() {
        return signalAddress;
    }

    public void setSignalAddress(String signalAddress) {
        this.signalAddress = signalAddress;
    }

    public String getDeserializationFilter() {
        return deserializationFilter;
    }

    public void setDeserializationFilter(String deserializationFilter) {
        this.deserializationFilter = deserializationFilter;
    }

    public String getQueueDefinitions() {
        return queueDefinitions;
    }

    public void setQueueDefinitions(String queueDefinitions) {
        this.queueDefinitions = queueDefinitions;
    }

    public String getDatabaseLinks() {
        return databaseLinks;
    }

    public void setDatabaseLinks(String databaseLinks) {
        this.databaseLinks = databaseLinks;
    }

    public String getDefaultSchema() {
        return defaultSchema;
    }

    public void setDefaultSchema(String defaultSchema) {
        this.defaultSchema = defaultSchema;
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user;
    }

    public String getAdministrators() {
        return administrators;
    }

    public void setAdministrators(String administrators) {
        this.administrators = administrators;
    }

    public Boolean getTimeManagerEnabled() {
        return timeManagerEnabled;
    }

    public void setTimeManagerEnabled(Boolean timeManagerEnabled) {
        this.timeManagerEnabled = timeManagerEnabled;
    }

    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }
}
