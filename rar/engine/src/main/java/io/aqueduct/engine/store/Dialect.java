package io.aqueduct.engine.store;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.XADataSource;

/**
 * What differs between databases, in one class per database ({@link DerbyDialect},
 * {@link PostgresDialect}, {@link MariaDbDialect}); {@link Dialects} picks one from the connection's
 * metadata. Nothing outside a dialect asks which database it talks to.
 */
public interface Dialect {

    /** EclipseLink's target-database value. */
    String eclipseLinkPlatform();

    /**
     * The database's name in {@code statements.properties} overrides ({@code name@database}):
     * {@code derby}, {@code postgresql} or {@code mariadb}.
     */
    String database();

    /** This database's SQL statements (see {@link Statements}); one instance per dialect, which caches them. */
    Statements statements();

    /**
     * The SQL statement {@code name} for this database (its {@code @database} override, else the
     * generic one), placeholders replaced; see {@link Statements#sql(String)}.
     */
    default String sql(String name) {
        return statements().sql(name);
    }

    /** The SQL statement {@code name}, its row limit {@code rows}; see {@link Statements#sql(String, int)}. */
    default String sql(String name, int rows) {
        return statements().sql(name, rows);
    }

    /** The schema queue tables belong to when a name gives none. */
    String defaultSchema();

    /**
     * The schema version the store records ({@link StoreSchema#CURRENT} when it is up to date), or 0
     * when it records none (an empty database, or a store made before versions were recorded). Reads
     * only the version table, which no message transaction ever locks: safe beside in-doubt branches.
     */
    int schemaVersion(Connection c) throws SQLException;

    /**
     * Brings the schema from version {@code from} to {@link StoreSchema#CURRENT}, step by numbered
     * step, under the schema lock (nodes starting together take turns) and with bounded lock waits
     * (a table an in-doubt branch holds gives a clear error, not a hang), then records the version.
     * Called only when {@link #schemaVersion} is older than current.
     */
    void migrateSchema(Connection c, int from) throws SQLException;

    /** Creates (or replaces) the AQ$&lt;queue_table&gt; view of one queue table. */
    void createQueueTableView(Connection c, String owner, String queueTable, long queueTableId, boolean multipleConsumers)
            throws SQLException;

    void dropQueueTableView(Connection c, String owner, String queueTable) throws SQLException;

    /** Re-creates every queue table's AQ$ view: a migration that changed the view's columns (schema 4: ORIGINAL_MSGID). */
    default void recreateQueueTableViews(Connection c) throws SQLException {
        java.util.List<Object[]> tables = new java.util.ArrayList<>();
        try (java.sql.Statement s = c.createStatement();
                java.sql.ResultSet rs = s.executeQuery("SELECT OWNER, NAME, QT_ID, MULTIPLE_CONSUMERS FROM AQ_QUEUE_TABLE")) {
            while (rs.next()) {
                tables.add(new Object[] {rs.getString(1).trim(), rs.getString(2).trim(), rs.getLong(3), rs.getInt(4) == 1});
            }
        }
        for (Object[] t : tables) {
            dropQueueTableView(c, (String) t[0], (String) t[1]);
            createQueueTableView(c, (String) t[0], (String) t[1], (Long) t[2], (Boolean) t[3]);
        }
    }

    /** A suffix that makes a candidate SELECT read without waiting for row locks (it re-checks later). */
    String dirtyReadSuffix();

    /** Limits a SELECT to its first {@code rows} rows (appended after ORDER BY). */
    String limit(int rows);

    /**
     * May several engines, in several JVMs, share this store? Then a dequeue selects and claims its
     * message in the database ({@link #lockSkipLockedSuffix()}) and nodes wake each other through
     * {@link #signals}; otherwise (embedded Derby) the ready index in memory is the whole truth.
     */
    default boolean shared() {
        return false;
    }

    /**
     * Does the database turn a row comparison ({@code (A, B) > (?, ?)}) into an index range? Where it
     * does not (MariaDB), the candidate read adds the same bound on the leading keys in a form it does
     * ({@code selection.candidates.from.<SORT_ORDER>}); where it does (PostgreSQL), that bound is left
     * out: its OR can lead a planner with stale statistics to sort the whole queue.
     */
    default boolean rowComparisonRanges() {
        return false;
    }

    /**
     * Can a plain REMOVE dequeue be a take: lock, remove and read up to an array's worth of messages
     * at the head of the queue in a few statements, whatever the array's size (shared stores)?
     * Otherwise (the ready index) it claims one message at a time.
     */
    default boolean takes() {
        return false;
    }

    /**
     * Is the take one statement ({@code selection.take}) that locks only the rows it returns? Where
     * it is not (InnoDB locks every row a locking scan reads, the next one too), the head is read
     * without locks and claimed by key ({@code selection.claimMessages}, {@code selection.consumeClaimed}).
     */
    default boolean takesInOneStatement() {
        return false;
    }

    /**
     * The dequeue claim of a shared store: appended to a SELECT by primary key, it locks the row
     * for the transaction or returns nothing when another transaction (of any node) holds it.
     */
    default String lockSkipLockedSuffix() {
        throw new UnsupportedOperationException("claims are made in the ready index on a store of one JVM");
    }

    /** The time manager's batch: on a shared store it locks the due rows it takes, skipping those others hold. */
    default String timeManagerBatchSuffix() {
        return dirtyReadSuffix();
    }

    /** Reserves a block of message sequence numbers shared by all nodes; returns the first (shared stores). */
    default long reserveSequenceBlock(Connection c) throws SQLException {
        throw new UnsupportedOperationException("one JVM counts its own sequence");
    }

    /**
     * Reserves {@code blocks} blocks of message sequence numbers at once, in one round trip; returns
     * their first numbers, ascending (shared stores).
     */
    default long[] reserveSequenceBlocks(Connection c, int blocks) throws SQLException {
        throw new UnsupportedOperationException("one JVM counts its own sequence");
    }

    /**
     * Does an array enqueue go in as multi-row INSERTs, the savepoint set and released in the same
     * round trip ({@code message.savepoint}, {@code Statements.rows})? Otherwise as one JDBC batch
     * between a savepoint and its release.
     */
    default boolean insertsArraysInOneRoundTrip() {
        return false;
    }

    /** How many numbers {@link #reserveSequenceBlock} reserves at a time. */
    default int sequenceBlockSize() {
        return 1;
    }

    /**
     * Does the database refuse XA COMMIT / ROLLBACK / RECOVER of a branch on a connection that has a
     * local transaction open, even an empty one (MariaDB: XAER_OUTSIDE)?
     */
    default boolean xaCommandsNeedIdleConnection() {
        return false;
    }

    /**
     * Where a store of one JVM keeps its attempt journal (REMOVE attempts and prepared branches in
     * flight, read back after a crash); null when the store does not outlive the JVM, or is shared
     * (its attempt ledger is a table).
     */
    default java.nio.file.Path journalFile() {
        return null;
    }

    /**
     * Cross-node wake-ups of a shared store ({@code node} marks this node's own; {@code direct}: where
     * it listens for datagrams from the other nodes, or off); null when the store has one JVM.
     */
    default NodeSignals signals(NodeIdentity node, DirectSignals.Config direct) {
        return null;
    }

    /**
     * Removes the whole store from the database: the AQ$ views of its queue tables, the catalog
     * views, the tables and the sequence (uninstalling; a test's clean slate). Messages are gone for good.
     */
    default void dropStore(Connection c) throws SQLException {
        throw new UnsupportedOperationException("delete the Derby database's directory instead");
    }

    /**
     * Does this failure mean the connection is gone (the server stopped or restarted, the network
     * broke, an administrator killed the session)? Then the connection is replaced, and the
     * transaction on it is lost. SQLState class 08 and the JDBC connection exceptions, plus what
     * each database adds.
     */
    default boolean isConnectionLost(java.sql.SQLException e) {
        String state = e.getSQLState();
        return e instanceof java.sql.SQLNonTransientConnectionException || e instanceof java.sql.SQLTransientConnectionException
                || e instanceof java.sql.SQLRecoverableException || (state != null && state.startsWith("08"));
    }

    /** Is this SQLState a lock timeout / deadlock / serialization failure worth retrying? */
    default boolean isTransient(String sqlState) {
        return sqlState != null && sqlState.startsWith("40");
    }

    /**
     * What keeps XA (two-phase commit) from working on this server, as a sentence an operator can
     * act on; null when nothing does. Asked once when the engine starts.
     */
    default String xaProblem(Connection c) throws java.sql.SQLException {
        return null;
    }

    /**
     * Can a take consume one message by key in one statement that neither waits for another
     * transaction's lock nor ends the transaction when the row is held ({@code selection.consumeOne})?
     * Asked on a connection of the store; false by default.
     */
    default boolean consumesOneWithoutWaiting(Connection c) throws java.sql.SQLException {
        return false;
    }

    /** Did the statement fail because another transaction holds the row (and fail alone, not the transaction)? */
    default boolean heldByAnother(java.sql.SQLException e) {
        return false;
    }

    /** Why the database refused to prepare a branch, when its error has a known cause; else null. */
    default String prepareFailureCause(Throwable failure) {
        return null;
    }

    /** An XA data source of the store. */
    XADataSource xaDataSource();

    /** Releases the database (Derby: shut the embedded database down). */
    void shutdown();
}
