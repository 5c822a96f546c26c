package io.aqueduct.api;

import java.util.List;
import java.util.Map;

/**
 * AQ's administrative interface (DBMS_AQADM). Names are {@code [schema.]name}: letters, digits,
 * {@code _ $ #}, starting with a letter, case-insensitive (stored upper-case); queue and queue
 * table names at most 24 bytes, schema names at most 30. Administrative operations commit on
 * their own, as DDL does in AQ.
 */
public interface QueueAdmin {

    /** Creates a queue table and its default exception queue {@code AQ$_<table>_E}. */
    void createQueueTable(String queueTable, QueueTableProperties properties);

    /** Changes a queue table's comment. */
    void alterQueueTable(String queueTable, String comment);

    /** Drops a queue table; with {@code force} its queues are stopped and dropped first. */
    void dropQueueTable(String queueTable, boolean force);

    void createQueue(String queue, String queueTable, QueueProperties properties);

    /** Changes max_retries, retry_delay, retention_time and comment; null leaves one unchanged. */
    void alterQueue(String queue, Integer maxRetries, Long retryDelaySeconds, Long retentionSeconds, String comment);

    /** Drops a stopped queue and its messages. */
    void dropQueue(String queue);

    /** Enables enqueue and / or dequeue. An exception queue can only be started for dequeue. */
    void startQueue(String queue, boolean enqueue, boolean dequeue);

    /**
     * Disables enqueue and / or dequeue. With {@code wait} the call waits for the transactions
     * working on the queue to end; without it a busy queue is refused (24203).
     */
    void stopQueue(String queue, boolean enqueue, boolean dequeue, boolean wait);

    /**
     * Adds a subscriber to a multi-consumer queue: it receives the messages enqueued from now on
     * for which {@code rule} (a condition on message properties and payload, null = all) is true.
     * At most 1024 subscribers; two never share name, address and protocol.
     */
    void addSubscriber(String queue, Agent subscriber, String rule);

    /**
     * Changes a subscriber's rule, read as an AQ condition (null = every message; a rule that was a
     * selector becomes this condition); its transformation stays.
     */
    void alterSubscriber(String queue, Agent subscriber, String rule);

    /** Removes a subscriber; its pending messages become UNDELIVERABLE to it. */
    void removeSubscriber(String queue, Agent subscriber);

    /**
     * Adds a subscriber whose messages are transformed by {@code transformation} (null: none) when
     * it receives them (AQ's ADD_SUBSCRIBER with a transformation). The transformation's source type
     * must be the queue table's payload type (24186); unknown: 24185.
     */
    void addSubscriber(String queue, Agent subscriber, String rule, String transformation);

    /** Changes a subscriber's rule, read as an AQ condition, and transformation (null: every message / none). */
    void alterSubscriber(String queue, Agent subscriber, String rule, String transformation);

    /**
     * Adds a subscriber whose rule is written in {@code syntax}: {@link RuleSyntax#CONDITION} as the
     * other overloads, or {@link RuleSyntax#SELECTOR}, a Jakarta Messaging message selector (a JMS
     * durable subscription); a null syntax is CONDITION. A null rule, or a blank selector, selects
     * every message. The rule is checked before anything is written: malformed in its syntax, 25448;
     * longer than 4000 bytes (UTF-8), 25448. The transformation as in
     * {@link #addSubscriber(String, Agent, String, String)}.
     */
    void addSubscriber(String queue, Agent subscriber, String rule, String transformation, RuleSyntax syntax);

    /**
     * Changes a subscriber's rule, transformation and the syntax its rule is written in (a null syntax
     * is CONDITION); checked as {@link #addSubscriber(String, Agent, String, String, RuleSyntax)}.
     */
    void alterSubscriber(String queue, Agent subscriber, String rule, String transformation, RuleSyntax syntax);

    List<SubscriberInfo> subscribers(String queue);

    // ------------------------------------------------------------------ Jakarta Messaging's own administration

    /** The names of the subscribers that Jakarta Messaging subscriptions are: {@code JMS_} and more. */
    String JMS_SUBSCRIBER_PREFIX = "JMS_";

    /**
     * A Jakarta Messaging topic subscription (durable, shared or not): adds local subscriber {@code name}
     * (beginning with {@value #JMS_SUBSCRIBER_PREFIX}, else 24097) to multi-consumer {@code queue} with
     * {@code selector} (a message selector, null: every message), as
     * {@link #addSubscriber(String, Agent, String, String, RuleSyntax)} does. A user that may receive from
     * the topic (DEQUEUE on the queue, DEQUEUE_ANY, its schema's ownership) may subscribe: MANAGE_ANY is not
     * needed; without DEQUEUE 1031.
     */
    void addJmsSubscriber(String queue, String name, String selector);

    /** Ends a Jakarta Messaging subscription ({@link #addJmsSubscriber}): who may add it may remove it. */
    void removeJmsSubscriber(String queue, String name);

    /**
     * A Jakarta Messaging temporary queue ({@code multipleConsumers} false) or topic: queue {@code queue}
     * (unqualified: in the default schema) in a queue table of its own ({@code T<queue>}, RAW, priority
     * order), started. Any user may create one: the creating user receives ALL on it, and everyone
     * (PUBLIC) ENQUEUE, as every holder of a temporary destination may send to it.
     */
    void createTemporaryQueue(String queue, boolean multipleConsumers);

    /**
     * Drops a temporary queue or topic with its queue table and messages: only one that
     * {@link #createTemporaryQueue} made (24097 otherwise), by a user that may dequeue from it (its
     * creator) or administer its schema (1031 otherwise).
     */
    void dropTemporaryQueue(String queue);

    // ------------------------------------------------------------------ transformations (DBMS_TRANSFORM)

    /**
     * Creates a transformation computed by a function: {@code functionClass} names a
     * {@link Transformer} class, loaded by name (missing or not a Transformer: 24097). Types are
     * {@code RAW}, {@code TEXT}, {@code JSON}, {@code XML} or a Java class name (an OBJECT type).
     * The name follows the queue naming rules; an existing name: 24184.
     */
    void createTransformation(String name, String fromType, String toType, String functionClass);

    /**
     * Creates a transformation computed attribute by attribute: each entry maps a target attribute
     * (a JSON member, an XML child element of a root element named after the transformation, or a
     * property / field of a new instance of the target class) to a value expression on the source,
     * such as {@code source.user_data.orderno} (malformed: 25448). A TEXT or RAW target takes one
     * attribute. The map may be empty and filled later with
     * {@link #modifyTransformation(String, String, String)}.
     */
    void createTransformation(String name, String fromType, String toType, Map<String, String> attributeExpressions);

    /** Replaces a transformation's definition with a function (types unchanged). */
    void modifyTransformation(String name, String functionClass);

    /** Replaces a transformation's definition with these attribute expressions (types unchanged). */
    void modifyTransformation(String name, Map<String, String> attributeExpressions);

    /**
     * Sets (adds or replaces) one attribute's expression of an attribute transformation, as
     * DBMS_TRANSFORM.MODIFY_TRANSFORMATION does per attribute; on a function transformation: 24097.
     */
    void modifyTransformation(String name, String attribute, String expression);

    /** Drops a transformation; one a subscriber still uses is refused (24097). Unknown: 24185. */
    void dropTransformation(String name);

    /** All transformations, by qualified name. */
    List<TransformationInfo> transformations();

    // ------------------------------------------------------------------ propagation (DBMS_AQADM)

    /**
     * Schedules propagation of {@code queue}'s messages for its remote subscribers and recipients
     * whose address names {@code destination} (SCHEDULE_PROPAGATION): a database link's name for
     * queues of another store ({@code queue@link}), or null / {@link PropagationSchedule#LOCAL} for
     * queues of this store ({@code [schema.]queue}).
     *
     * @param startTime when the first window starts; null: now
     * @param durationSeconds the window's length; null: one window without end
     * @param nextTime the next window's start computed from the end of the current one, in the
     *     expression language with {@code SYSDATE} and date arithmetic in days
     *     ({@code SYSDATE + 1/24}); null: no window after the first. Ignored without a duration.
     * @param latencySeconds the longest a new message waits before it is propagated, in a window
     *     (0: at once; AQ's default is 60)
     * @throws AqException 24010 unknown queue; 24039 not a multi-consumer queue; 24097 an exception
     *     queue, a negative duration or latency, a next_time not later than the window's start;
     *     25448 a next_time that does not parse; 44003 a destination that is not a name; 2019 an
     *     unknown database link; 24041 a schedule for this queue and destination exists
     */
    void schedulePropagation(String queue, String destination, java.time.Instant startTime, Long durationSeconds,
            String nextTime, long latencySeconds);

    /** Drops a schedule (UNSCHEDULE_PROPAGATION); a run in progress ends first. Missing: 24042. */
    void unschedulePropagation(String queue, String destination);

    /**
     * Replaces a schedule's duration, next_time and latency (ALTER_PROPAGATION_SCHEDULE: a null
     * duration is one window without end, a null next_time none), checked as for
     * {@link #schedulePropagation}; the current window is re-planned from its start.
     */
    void alterPropagationSchedule(String queue, String destination, Long durationSeconds, String nextTime,
            long latencySeconds);

    /** Enables a disabled schedule (also one disabled by failures: its failure count is reset). Enabled: 24064. */
    void enablePropagationSchedule(String queue, String destination);

    /** Disables a schedule: it propagates nothing until enabled. Disabled: 24065. */
    void disablePropagationSchedule(String queue, String destination);

    /** Every schedule with its statistics (DBA_QUEUE_SCHEDULES), by queue and destination. */
    List<PropagationSchedule> propagationSchedules();

    /** One schedule (null destination: this store's). Missing: 24042. */
    PropagationSchedule propagationSchedule(String queue, String destination);

    /**
     * Creates a database link: a name for another Aqueduct store, given as a JDBC URL (PostgreSQL,
     * MariaDB, Derby) or a Derby store directory. Nothing is connected until propagation uses it.
     *
     * @throws AqException 44003 a name that is not an identifier; 24097 an empty URL; 2011 the name exists
     */
    void createDatabaseLink(String name, String url, String user, String password);

    /**
     * Changes a database link's store, user and password (ALTER DATABASE LINK), checked as
     * {@link #createDatabaseLink}; the schedules that use it keep it. Propagation lets go of the
     * store it reached and connects with the new settings at its next batch (a batch in progress
     * ends on the old ones); on a shared store every node does. Missing: 2019.
     *
     * @return false when the link had exactly these settings already (nothing was written)
     */
    boolean alterDatabaseLink(String name, String url, String user, String password);

    /** Drops a database link; one that a schedule uses is refused (24097). Missing: 2019. */
    void dropDatabaseLink(String name);

    /** The database links, by name (without passwords). */
    List<DatabaseLinkInfo> databaseLinks();

    // ------------------------------------------------------------------ agents (DBMS_AQADM)

    /**
     * Creates an AQ agent: a name an Internet user (HTTP, mail) works under. Names are identifiers of
     * at most 30 bytes, kept upper-case (44003 / 24019). An existing name: 24089.
     */
    void createAqAgent(String agent, boolean enableHttp, boolean enableSmtp);

    /** Changes an agent's HTTP and mail access; null leaves one unchanged. Unknown agent: 24088. */
    void alterAqAgent(String agent, Boolean enableHttp, Boolean enableSmtp);

    /** Drops an agent and its database user mappings. Unknown agent: 24088. */
    void dropAqAgent(String agent);

    /**
     * Lets an agent act as a database user (the AQ user of the sessions it opens): ENABLE_DB_ACCESS.
     * Mapping it again changes nothing. Unknown agent: 24088.
     */
    void enableDbAccess(String agent, String dbUser);

    /** Removes a mapping (DISABLE_DB_ACCESS). Unknown agent: 24088; not mapped to that user: 24093. */
    void disableDbAccess(String agent, String dbUser);

    /** Every agent with its database users (AQ$INTERNET_USERS), by name. */
    List<AqAgentInfo> aqAgents();

    // ------------------------------------------------------------------ privileges (DBMS_AQADM)

    /**
     * Grants ENQUEUE, DEQUEUE or ALL on a queue to a user or {@code PUBLIC} (everyone); with
     * {@code grantOption} the grantee may grant it on. Granting needs the queue's ownership (a user
     * named like its schema), MANAGE_ANY, an administrator, or the grant option on the privilege.
     * Granting what was granted changes only the grant option (it is kept, or added).
     *
     * @throws AqException 24010 unknown queue; 44003 / 24019 a grantee that is not a name; 1031 the
     *     granting user may not grant it
     */
    void grantQueuePrivilege(QueuePrivilege privilege, String queue, String grantee, boolean grantOption);

    /**
     * Revokes a queue privilege (ALL: both) from a grantee; it takes effect at once, on every node
     * of a shared store. Revoking needs what granting needs, or to be the user who granted it.
     *
     * @throws AqException 24010 unknown queue; 1927 not granted to that grantee; 1031 may not revoke it
     */
    void revokeQueuePrivilege(QueuePrivilege privilege, String queue, String grantee);

    /**
     * Grants a system privilege to a user or {@code PUBLIC}; with {@code adminOption} the grantee may
     * grant and revoke it in turn. Needs an administrator or the admin option (1031).
     */
    void grantSystemPrivilege(SystemPrivilege privilege, String grantee, boolean adminOption);

    /** Revokes a system privilege, as granting needs. Not granted to that grantee: 1952. */
    void revokeSystemPrivilege(SystemPrivilege privilege, String grantee);

    /** Every queue grant (QUEUE_PRIVILEGES), by grantee, owner, queue and grantor. */
    List<QueuePrivilegeInfo> queuePrivileges();

    /** Every system privilege grant, by grantee and privilege. */
    List<SystemPrivilegeInfo> systemPrivileges();

    QueueTableInfo queueTable(String queueTable);

    QueueInfo queue(String queue);

    List<QueueTableInfo> queueTables();

    List<QueueInfo> queues();

    /**
     * Every queue's persistent messages by state and waiting time (AQ's V$AQ; per consumer on
     * multi-consumer queues), by qualified name. Open to every user, as {@link #queues()} is. The
     * figures are counted from the store's rows at each call, so a call costs more the more messages
     * are queued (milliseconds at thousands, seconds at a million: docs/metrics.md); buffered
     * messages: {@link #bufferedQueues()}.
     */
    List<QueueStatistics> queueStatistics();

    /** One queue's statistics, as {@link #queueStatistics()}. Unknown queue: 24010. */
    QueueStatistics queueStatistics(String queue);

    /**
     * The committed messages of a queue in every state, as the AQ$&lt;queue_table&gt; view shows them (a dequeue's
     * BROWSE shows only what it could take): at most {@code max} (1 to {@link QueueMessage#MAX_PAGE}) in enqueue
     * order, those after the message {@code after} (null: from the first), only those in {@code state} when it
     * is not null; on a multi-consumer queue with each consumer's part. A page is read by key from where the last
     * one ended, never by skipping the messages before it. Needs the queue's ownership or MANAGE_ANY (1031);
     * unknown queue: 24010; {@code after} not a message of the queue, or {@code max} out of range: 24097.
     */
    java.util.List<QueueMessage> queueMessages(String queue, MessageState state, MessageId after, int max);

    /**
     * The notification registrations of the store, with their delivery counts, pending RELIABLE
     * notifications and last error: every user's (AQ's DBA_SUBSCR_REGISTRATIONS) for an administrator or
     * a holder of MANAGE_ANY, else those the session's user made (USER_SUBSCR_REGISTRATIONS).
     */
    List<RegistrationInfo> registrations();

    /**
     * The queues that hold buffered messages on this engine, or held some since it started (AQ's
     * V$BUFFERED_QUEUES): counts and memory per queue, and per consumer on multi-consumer queues.
     * Buffered messages live in the memory of the engine that enqueued them: another node of a shared
     * store shows its own.
     */
    List<BufferedQueueInfo> bufferedQueues();
}
