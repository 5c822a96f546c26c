package io.aqueduct.engine.store;

/** Where a shared store is: a JDBC URL and the credentials to connect with. */
public record JdbcSettings(String url, String user, String password) {
    @Override
    public String toString() {
        return url + (user == null ? "" : " as " + user); // never the password
    }
}
