package io.aqueduct.engine.store;

import java.util.function.UnaryOperator;

/**
 * The catalog views of schema 5, written once for every database: QUEUE_PRIVILEGES (who was granted
 * what on which queue, by whom: one row per grantee, queue and grantor, ENQUEUE_PRIVILEGE and
 * DEQUEUE_PRIVILEGE 1 or 0) over {@code AQ_QUEUE_PRIVILEGE} and {@code AQ_QUEUE}, and
 * AQ$INTERNET_USERS (each AQ agent with each database user it may act as, one row with a NULL
 * DB_USERNAME for an agent mapped to none; HTTP_ENABLED and SMTP_ENABLED 'YES' or 'NO') over
 * {@code AQ_AGENT} and {@code AQ_AGENT_DB_USER}.
 */
final class SecurityViews {
    static final String QUEUE_PRIVILEGES = "QUEUE_PRIVILEGES";
    /** Named as AQ names it: on every database created quoted (Derby takes no unquoted $), as the AQ$ views of queue tables. */
    static final String INTERNET_USERS = "AQ$INTERNET_USERS";

    private SecurityViews() {
    }

    /** The column list and {@code AS SELECT} of QUEUE_PRIVILEGES. */
    static String queuePrivilegesColumnsAndSelect() {
        return " (GRANTEE, OWNER, NAME, GRANTOR, ENQUEUE_PRIVILEGE, DEQUEUE_PRIVILEGE) AS SELECT P.GRANTEE, Q.OWNER, Q.NAME,"
                + " P.GRANTOR, MAX(CASE WHEN P.PRIVILEGE = 'ENQUEUE' THEN 1 ELSE 0 END),"
                + " MAX(CASE WHEN P.PRIVILEGE = 'DEQUEUE' THEN 1 ELSE 0 END)"
                + " FROM AQ_QUEUE_PRIVILEGE P JOIN AQ_QUEUE Q ON P.QID = Q.QID GROUP BY P.GRANTEE, Q.OWNER, Q.NAME, P.GRANTOR";
    }

    /** The column list and {@code AS SELECT} of AQ$INTERNET_USERS. */
    static String internetUsersColumnsAndSelect() {
        return " (AGENT_NAME, DB_USERNAME, HTTP_ENABLED, SMTP_ENABLED) AS SELECT A.NAME, U.DB_USER,"
                + " CASE WHEN A.HTTP_ENABLED = 1 THEN 'YES' ELSE 'NO' END, CASE WHEN A.SMTP_ENABLED = 1 THEN 'YES' ELSE 'NO' END"
                + " FROM AQ_AGENT A LEFT JOIN AQ_AGENT_DB_USER U ON U.AGENT = A.NAME";
    }

    /** The tables of schema 5, as {@code CREATE TABLE} bodies after the table name ({@code suffix}: the dialect's table options). */
    static String[][] tables(UnaryOperator<String> suffix) {
        return new String[][] {
            {"AQ_AGENT", "(NAME VARCHAR(30) NOT NULL PRIMARY KEY, HTTP_ENABLED SMALLINT NOT NULL,"
                    + " SMTP_ENABLED SMALLINT NOT NULL)" + suffix.apply("")},
            {"AQ_AGENT_DB_USER", "(AGENT VARCHAR(30) NOT NULL, DB_USER VARCHAR(30) NOT NULL,"
                    + " PRIMARY KEY (AGENT, DB_USER))" + suffix.apply("")},
            // one row per queue, grantee (a user or PUBLIC) and privilege (ENQUEUE or DEQUEUE)
            {"AQ_QUEUE_PRIVILEGE", "(QID BIGINT NOT NULL, GRANTEE VARCHAR(30) NOT NULL, PRIVILEGE VARCHAR(7) NOT NULL,"
                    + " GRANTOR VARCHAR(128) NOT NULL, GRANTABLE SMALLINT NOT NULL, PRIMARY KEY (QID, GRANTEE, PRIVILEGE))"
                    + suffix.apply("")},
            {"AQ_SYSTEM_PRIVILEGE", "(GRANTEE VARCHAR(30) NOT NULL, PRIVILEGE VARCHAR(11) NOT NULL,"
                    + " GRANTOR VARCHAR(128) NOT NULL, ADMIN_OPTION SMALLINT NOT NULL, PRIMARY KEY (GRANTEE, PRIVILEGE))"
                    + suffix.apply("")},
        };
    }
}
