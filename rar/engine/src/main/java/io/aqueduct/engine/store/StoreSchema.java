package io.aqueduct.engine.store;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The store's schema version. A store records the version it was brought to in
 * {@code AQ_SCHEMA_VERSION}; at start the engine reads only that row, and runs DDL only when the
 * store is older (numbered steps, each dialect's own, under the schema lock). A store that is
 * current is opened without one DDL statement, so nothing at start waits on tables or rows that an
 * in-doubt XA branch holds. A newer store is refused: an older Aqueduct must not write to it.
 */
public final class StoreSchema {
    /**
     * The schema this Aqueduct writes. 1: queue tables, queues, messages, subscribers, consumers,
     * transformations, attempts. 2: messages' user properties ({@code AQ_MESSAGE.USER_PROPS}).
     * 3: the syntax of subscribers' rules ({@code AQ_SUBSCRIBER.RULE_SYNTAX}: CONDITION or SELECTOR).
     * 4: propagation: schedules ({@code AQ_SCHEDULE}), database links ({@code AQ_DBLINK}), receipts of
     * propagated messages ({@code AQ_PROPAGATION_RECEIPT}), a remote consumer's destination
     * ({@code AQ_MESSAGE_CONSUMER.DEST}) and the views DBA_QUEUE_SCHEDULES / USER_QUEUE_SCHEDULES.
     * 5: users, agents and privileges: AQ agents ({@code AQ_AGENT}, {@code AQ_AGENT_DB_USER}), queue and
     * system privileges ({@code AQ_QUEUE_PRIVILEGE}, {@code AQ_SYSTEM_PRIVILEGE}) and the views
     * QUEUE_PRIVILEGES / AQ$INTERNET_USERS.
     * 6: notifications: registrations ({@code AQ_REGISTRATION}), pending RELIABLE notifications
     * ({@code AQ_NOTIFICATION}) and the view DBA_SUBSCR_REGISTRATIONS.
     * 7: the original queue of a message moved to an exception queue ({@code AQ_MESSAGE.ORIGINAL_QSCHEMA},
     * {@code ORIGINAL_QUEUE}; NULL in rows moved before: unknown) and the AQ$ views' ORIGINAL_QUEUE_OWNER / _NAME.
     * 8: AQ's statistics views V$AQ and GV$AQ (and, on Derby, the function AQ_NOW_MILLIS they read the clock with).
     * 9: on PostgreSQL, the function AQ_ATTEMPT_ON_RECORD a claim asks the attempt ledger with, just before it
     * tries a row's lock (nothing on Derby and MariaDB, whose version number moves with the others).
     */
    public static final int CURRENT = 9;

    private StoreSchema() {
    }

    /** Checks the store's version and migrates an older one; commits. */
    static void bringUpToDate(Dialect dialect, Connection c) throws SQLException {
        int version = dialect.schemaVersion(c);
        if (version > CURRENT) {
            c.rollback();
            throw new AqException(AqError.STORE_FAILURE, "The Aqueduct store has schema version " + version
                    + ", newer than this Aqueduct's (" + CURRENT + "): a newer Aqueduct wrote it. Run that version"
                    + " (or newer) against this store; an older one may not change it.");
        }
        if (version < CURRENT) {
            dialect.migrateSchema(c, version);
        }
        c.commit();
    }

    /** Records {@link #CURRENT} as the store's version (the last step of a migration, in its transaction). */
    static void recordCurrent(Dialect dialect, Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(dialect.sql("store.clearSchemaVersion"));
        }
        try (PreparedStatement ps = c.prepareStatement(dialect.sql("store.recordSchemaVersion"))) {
            ps.setInt(1, CURRENT);
            ps.executeUpdate();
        }
    }
}
