package io.aqueduct.engine.store;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.XADataSource;

/**
 * What differs between databases, in one class per database (Derby now; PostgreSQL and MariaDB
 * later). Nothing outside a dialect asks which database it talks to.
 */
public interface Dialect {

    /** EclipseLink's target-database value. */
    String eclipseLinkPlatform();

    /** The schema queue tables belong to when a name gives none. */
    String defaultSchema();

    /** Creates the store's tables, indexes and catalog views if they do not exist yet. */
    void createSchema(Connection c) throws SQLException;

    /** Creates (or replaces) the AQ$&lt;queue_table&gt; view of one queue table. */
    void createQueueTableView(Connection c, String owner, String queueTable, long queueTableId, boolean multipleConsumers)
            throws SQLException;

    void dropQueueTableView(Connection c, String owner, String queueTable) throws SQLException;

    /** A suffix that makes a candidate SELECT read without waiting for row locks (it re-checks later). */
    String dirtyReadSuffix();

    /** Is this SQLState a lock timeout / deadlock / serialization failure worth retrying? */
    default boolean isTransient(String sqlState) {
        return sqlState != null && sqlState.startsWith("40");
    }

    /** An XA data source of the store. */
    XADataSource xaDataSource();

    /** Releases the database (Derby: shut the embedded database down). */
    void shutdown();
}
