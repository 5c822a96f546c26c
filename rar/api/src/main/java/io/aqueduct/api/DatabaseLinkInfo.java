package io.aqueduct.api;

/**
 * A database link: a name for another Aqueduct store that propagation reaches (as
 * {@code queue@link} in a remote subscriber's address). The password is never shown.
 *
 * @param name the link's name (upper-case)
 * @param url the store: a JDBC URL (PostgreSQL, MariaDB, Derby) or a Derby store directory
 * @param user the database user (null: none)
 */
public record DatabaseLinkInfo(String name, String url, String user) {
}
