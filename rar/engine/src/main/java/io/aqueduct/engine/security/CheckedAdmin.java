package io.aqueduct.engine.security;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqAgentInfo;
import io.aqueduct.api.DatabaseLinkInfo;
import io.aqueduct.api.PropagationSchedule;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueInfo;
import io.aqueduct.api.QueuePrivilege;
import io.aqueduct.api.QueuePrivilegeInfo;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueTableInfo;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.RuleSyntax;
import io.aqueduct.api.SubscriberInfo;
import io.aqueduct.api.SystemPrivilege;
import io.aqueduct.api.SystemPrivilegeInfo;
import io.aqueduct.api.TransformationInfo;
import io.aqueduct.engine.queue.QualifiedName;
import java.util.List;
import java.util.Map;

/**
 * The administrative interface as a session's user (not an administrator) may use it: each change
 * is checked first (1031 when refused, nothing done) and then made by the engine's administration.
 * A change to a schema's queue tables, queues, subscribers, schedules and transformations needs the
 * schema's ownership (a user named like it) or MANAGE_ANY; agents and database links MANAGE_ANY;
 * grants as {@link Privileges} says. Reading the catalog is open to every user, but for the notification
 * registrations: a user without MANAGE_ANY sees its own.
 */
public final class CheckedAdmin implements QueueAdmin {
    private final QueueAdmin delegate;
    private final Privileges privileges;
    private final String user;
    private final String defaultSchema;

    public CheckedAdmin(QueueAdmin delegate, Privileges privileges, String user, String defaultSchema) {
        this.delegate = delegate;
        this.privileges = privileges;
        this.user = user;
        this.defaultSchema = defaultSchema;
    }

    /** Refuses unless the user may change the schema of {@code name} (a malformed name is refused as the operation would). */
    private void schema(String name, String kind, String what) {
        privileges.checkManage(this.user, QualifiedName.forLookup(name, defaultSchema, kind).schema(), what);
    }

    /** Refuses a subscriber whose address propagation would deliver to where the user may not enqueue (see {@link Privileges#checkAddress}). */
    private void address(String queue, Agent subscriber, String what) {
        if (subscriber != null) {
            privileges.checkAddress(this.user, QualifiedName.forLookup(queue, defaultSchema, "queue").schema(), subscriber, what);
        }
    }

    /** A schedule to a database link: the link reaches another store, as the link's owner, so it needs MANAGE_ANY as links do. */
    private void link(String destination, String what) {
        if (!io.aqueduct.engine.queue.RemoteAddress.scheduleDestination(destination).equals(PropagationSchedule.LOCAL)) {
            privileges.checkManageAny(this.user, what + " to database link " + io.aqueduct.engine.queue.RemoteAddress.linkName(destination));
        }
    }

    @Override
    public void createQueueTable(String queueTable, QueueTableProperties properties) {
        schema(queueTable, "queue table", "create a queue table");
        delegate.createQueueTable(queueTable, properties);
    }

    @Override
    public void alterQueueTable(String queueTable, String comment) {
        schema(queueTable, "queue table", "alter a queue table");
        delegate.alterQueueTable(queueTable, comment);
    }

    @Override
    public void dropQueueTable(String queueTable, boolean force) {
        schema(queueTable, "queue table", "drop a queue table");
        delegate.dropQueueTable(queueTable, force);
    }

    @Override
    public void createQueue(String queue, String queueTable, QueueProperties properties) {
        schema(queue, "queue", "create a queue");
        schema(queueTable, "queue table", "create a queue");
        delegate.createQueue(queue, queueTable, properties);
    }

    @Override
    public void alterQueue(String queue, Integer maxRetries, Long retryDelaySeconds, Long retentionSeconds, String comment) {
        schema(queue, "queue", "alter a queue");
        delegate.alterQueue(queue, maxRetries, retryDelaySeconds, retentionSeconds, comment);
    }

    @Override
    public void dropQueue(String queue) {
        schema(queue, "queue", "drop a queue");
        delegate.dropQueue(queue);
    }

    @Override
    public void startQueue(String queue, boolean enqueue, boolean dequeue) {
        schema(queue, "queue", "start a queue");
        delegate.startQueue(queue, enqueue, dequeue);
    }

    @Override
    public void stopQueue(String queue, boolean enqueue, boolean dequeue, boolean wait) {
        schema(queue, "queue", "stop a queue");
        delegate.stopQueue(queue, enqueue, dequeue, wait);
    }

    @Override
    public void addSubscriber(String queue, Agent subscriber, String rule) {
        schema(queue, "queue", "add a subscriber");
        address(queue, subscriber, "add a subscriber");
        delegate.addSubscriber(queue, subscriber, rule);
    }

    @Override
    public void alterSubscriber(String queue, Agent subscriber, String rule) {
        schema(queue, "queue", "alter a subscriber");
        address(queue, subscriber, "alter a subscriber");
        delegate.alterSubscriber(queue, subscriber, rule);
    }

    @Override
    public void removeSubscriber(String queue, Agent subscriber) {
        schema(queue, "queue", "remove a subscriber");
        delegate.removeSubscriber(queue, subscriber);
    }

    @Override
    public void addSubscriber(String queue, Agent subscriber, String rule, String transformation) {
        schema(queue, "queue", "add a subscriber");
        address(queue, subscriber, "add a subscriber");
        delegate.addSubscriber(queue, subscriber, rule, transformation);
    }

    @Override
    public void alterSubscriber(String queue, Agent subscriber, String rule, String transformation) {
        schema(queue, "queue", "alter a subscriber");
        address(queue, subscriber, "alter a subscriber");
        delegate.alterSubscriber(queue, subscriber, rule, transformation);
    }

    @Override
    public void addSubscriber(String queue, Agent subscriber, String rule, String transformation, RuleSyntax syntax) {
        schema(queue, "queue", "add a subscriber");
        address(queue, subscriber, "add a subscriber");
        delegate.addSubscriber(queue, subscriber, rule, transformation, syntax);
    }

    @Override
    public void alterSubscriber(String queue, Agent subscriber, String rule, String transformation, RuleSyntax syntax) {
        schema(queue, "queue", "alter a subscriber");
        address(queue, subscriber, "alter a subscriber");
        delegate.alterSubscriber(queue, subscriber, rule, transformation, syntax);
    }

    @Override
    public List<SubscriberInfo> subscribers(String queue) {
        return delegate.subscribers(queue);
    }

    @Override
    public void createTransformation(String name, String fromType, String toType, String functionClass) {
        schema(name, "transformation", "create a transformation");
        delegate.createTransformation(name, fromType, toType, functionClass);
    }

    @Override
    public void createTransformation(String name, String fromType, String toType, Map<String, String> attributeExpressions) {
        schema(name, "transformation", "create a transformation");
        delegate.createTransformation(name, fromType, toType, attributeExpressions);
    }

    @Override
    public void modifyTransformation(String name, String functionClass) {
        schema(name, "transformation", "modify a transformation");
        delegate.modifyTransformation(name, functionClass);
    }

    @Override
    public void modifyTransformation(String name, Map<String, String> attributeExpressions) {
        schema(name, "transformation", "modify a transformation");
        delegate.modifyTransformation(name, attributeExpressions);
    }

    @Override
    public void modifyTransformation(String name, String attribute, String expression) {
        schema(name, "transformation", "modify a transformation");
        delegate.modifyTransformation(name, attribute, expression);
    }

    @Override
    public void dropTransformation(String name) {
        schema(name, "transformation", "drop a transformation");
        delegate.dropTransformation(name);
    }

    @Override
    public List<TransformationInfo> transformations() {
        return delegate.transformations();
    }

    @Override
    public void schedulePropagation(String queue, String destination, java.time.Instant startTime, Long durationSeconds, String nextTime, long latencySeconds) {
        schema(queue, "queue", "schedule propagation");
        link(destination, "schedule propagation");
        delegate.schedulePropagation(queue, destination, startTime, durationSeconds, nextTime, latencySeconds);
    }

    @Override
    public void unschedulePropagation(String queue, String destination) {
        schema(queue, "queue", "unschedule propagation");
        delegate.unschedulePropagation(queue, destination);
    }

    @Override
    public void alterPropagationSchedule(String queue, String destination, Long durationSeconds, String nextTime, long latencySeconds) {
        schema(queue, "queue", "alter a propagation schedule");
        link(destination, "alter a propagation schedule");
        delegate.alterPropagationSchedule(queue, destination, durationSeconds, nextTime, latencySeconds);
    }

    @Override
    public void enablePropagationSchedule(String queue, String destination) {
        schema(queue, "queue", "enable a propagation schedule");
        link(destination, "enable a propagation schedule");
        delegate.enablePropagationSchedule(queue, destination);
    }

    @Override
    public void disablePropagationSchedule(String queue, String destination) {
        schema(queue, "queue", "disable a propagation schedule");
        delegate.disablePropagationSchedule(queue, destination);
    }

    @Override
    public List<PropagationSchedule> propagationSchedules() {
        return delegate.propagationSchedules();
    }

    @Override
    public PropagationSchedule propagationSchedule(String queue, String destination) {
        return delegate.propagationSchedule(queue, destination);
    }

    @Override
    public void createDatabaseLink(String name, String url, String user, String password) {
        privileges.checkManageAny(this.user, "create a database link");
        delegate.createDatabaseLink(name, url, user, password);
    }

    @Override
    public boolean alterDatabaseLink(String name, String url, String user, String password) {
        privileges.checkManageAny(this.user, "alter a database link");
        return delegate.alterDatabaseLink(name, url, user, password);
    }

    @Override
    public void dropDatabaseLink(String name) {
        privileges.checkManageAny(this.user, "drop a database link");
        delegate.dropDatabaseLink(name);
    }

    @Override
    public List<DatabaseLinkInfo> databaseLinks() {
        return delegate.databaseLinks();
    }

    @Override
    public void createAqAgent(String agent, boolean enableHttp, boolean enableSmtp) {
        privileges.checkManageAny(this.user, "create an AQ agent");
        delegate.createAqAgent(agent, enableHttp, enableSmtp);
    }

    @Override
    public void alterAqAgent(String agent, Boolean enableHttp, Boolean enableSmtp) {
        privileges.checkManageAny(this.user, "alter an AQ agent");
        delegate.alterAqAgent(agent, enableHttp, enableSmtp);
    }

    @Override
    public void dropAqAgent(String agent) {
        privileges.checkManageAny(this.user, "drop an AQ agent");
        delegate.dropAqAgent(agent);
    }

    @Override
    public void enableDbAccess(String agent, String dbUser) {
        privileges.checkManageAny(this.user, "enable database access of an AQ agent");
        delegate.enableDbAccess(agent, dbUser);
    }

    @Override
    public void disableDbAccess(String agent, String dbUser) {
        privileges.checkManageAny(this.user, "disable database access of an AQ agent");
        delegate.disableDbAccess(agent, dbUser);
    }

    @Override
    public List<AqAgentInfo> aqAgents() {
        return delegate.aqAgents();
    }

    @Override
    public void grantQueuePrivilege(QueuePrivilege privilege, String queue, String grantee, boolean grantOption) {
        privileges.grantQueue(this.user, privilege, queue, grantee, grantOption);
    }

    @Override
    public void revokeQueuePrivilege(QueuePrivilege privilege, String queue, String grantee) {
        privileges.revokeQueue(this.user, privilege, queue, grantee);
    }

    @Override
    public void grantSystemPrivilege(SystemPrivilege privilege, String grantee, boolean adminOption) {
        privileges.grantSystem(this.user, privilege, grantee, adminOption);
    }

    @Override
    public void revokeSystemPrivilege(SystemPrivilege privilege, String grantee) {
        privileges.revokeSystem(this.user, privilege, grantee);
    }

    @Override
    public List<QueuePrivilegeInfo> queuePrivileges() {
        return delegate.queuePrivileges();
    }

    @Override
    public List<SystemPrivilegeInfo> systemPrivileges() {
        return delegate.systemPrivileges();
    }

    @Override
    public QueueTableInfo queueTable(String queueTable) {
        return delegate.queueTable(queueTable);
    }

    @Override
    public QueueInfo queue(String queue) {
        return delegate.queue(queue);
    }

    @Override
    public List<QueueTableInfo> queueTables() {
        return delegate.queueTables();
    }

    @Override
    public List<QueueInfo> queues() {
        return delegate.queues();
    }

    @Override
    public List<io.aqueduct.api.QueueStatistics> queueStatistics() {
        return delegate.queueStatistics(); // counts by state, open to every user as queues() is
    }

    @Override
    public io.aqueduct.api.QueueStatistics queueStatistics(String queue) {
        return delegate.queueStatistics(queue);
    }

    /** The messages themselves (their correlations, users, transactions) are the queue's owner's to read, or MANAGE_ANY's. */
    @Override
    public List<io.aqueduct.api.QueueMessage> queueMessages(String queue, io.aqueduct.api.MessageState state,
            io.aqueduct.api.MessageId after, int max) {
        schema(queue, "queue", "read the messages of a queue");
        return delegate.queueMessages(queue, state, after, max);
    }

    // ------------------------------------------------------------------ what Jakarta Messaging does for its users

    /** A subscription is how a JMS client receives from a topic: who may receive from it may subscribe, MANAGE_ANY not needed. */
    private void mayReceive(String queue, String what) {
        if (!privileges.mayManageAny(this.user)) {
            privileges.checkNamed(this.user, queue, QueuePrivilege.DEQUEUE, what);
        }
    }

    @Override
    public void addJmsSubscriber(String queue, String name, String selector) {
        mayReceive(queue, "subscribe to");
        delegate.addJmsSubscriber(queue, name, selector);
    }

    @Override
    public void removeJmsSubscriber(String queue, String name) {
        mayReceive(queue, "end a subscription to");
        delegate.removeJmsSubscriber(queue, name);
    }

    /** Any user may create one; it receives ALL on it (the grant is the record of who may drop it). */
    @Override
    public void createTemporaryQueue(String queue, boolean multipleConsumers) {
        UserNames.check(this.user, "grantee"); // before anything is created: a user that cannot be granted it could not use it
        delegate.createTemporaryQueue(queue, multipleConsumers);
        privileges.grantQueue(null, QueuePrivilege.ALL, queue, this.user, false);
    }

    @Override
    public void dropTemporaryQueue(String queue) {
        if (!privileges.mayManageAny(this.user)) {
            privileges.checkNamed(this.user, queue, QueuePrivilege.DEQUEUE, "drop temporary destination");
        }
        delegate.dropTemporaryQueue(queue);
    }

    @Override
    public List<io.aqueduct.api.RegistrationInfo> registrations() {
        if (privileges.mayManageAny(this.user)) {
            return delegate.registrations(); // DBA_SUBSCR_REGISTRATIONS
        }
        String me = UserNames.normalize(this.user); // USER_SUBSCR_REGISTRATIONS: what this user registered
        return delegate.registrations().stream().filter(r -> r.user() != null && UserNames.normalize(r.user()).equals(me)).toList();
    }

    @Override
    public List<io.aqueduct.api.BufferedQueueInfo> bufferedQueues() {
        return delegate.bufferedQueues(); // a catalog view, open to every user as queues() is
    }
}
