package io.aqueduct.engine.store;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Properties;

/** Picks the dialect of a store from what the database says it is (its connection's metadata). */
public final class Dialects {
    private Dialects() {
    }

    /**
     * The dialect of the database at {@code settings}: PostgreSQL, MariaDB (or MySQL's protocol
     * spoken by MariaDB) or Derby. Connects once to ask.
     *
     * @throws AqException when the database cannot be reached or is none of these
     */
    public static Dialect forJdbc(JdbcSettings settings) {
        String url = settings.url();
        if (url == null || !url.startsWith("jdbc:")) {
            throw new AqException(AqError.STORE_FAILURE, "The store URL must be a JDBC URL (jdbc:postgresql://...,"
                    + " jdbc:mariadb://..., jdbc:derby:...); got " + url + ".");
        }
        String product;
        Properties p = new Properties();
        if (settings.user() != null) {
            p.setProperty("user", settings.user());
        }
        if (settings.password() != null) {
            p.setProperty("password", settings.password());
        }
        try (Connection c = driverFor(url).connect(url, p)) {
            if (c == null) {
                throw new SQLException("no driver accepts this URL");
            }
            product = c.getMetaData().getDatabaseProductName();
        } catch (SQLException e) {
            throw new AqException(AqError.STORE_FAILURE, "Cannot connect to the Aqueduct store at " + settings + ": "
                    + e.getMessage(), e);
        }
        String name = product == null ? "" : product.toLowerCase(Locale.ROOT);
        if (name.contains("postgresql")) {
            return new PostgresDialect(settings);
        }
        if (name.contains("mariadb") || name.contains("mysql")) {
            return new MariaDbDialect(settings);
        }
        if (name.contains("derby")) {
            String database = url.substring("jdbc:derby:".length()).split(";")[0];
            return database.startsWith("memory:") ? DerbyDialect.inMemory(database.substring("memory:".length()))
                    : DerbyDialect.directory(Path.of(database));
        }
        throw new AqException(AqError.STORE_FAILURE, "The database at " + settings + " is " + product
                + "; Aqueduct stores queues in PostgreSQL, MariaDB or Derby.");
    }

    private static java.sql.Driver driverFor(String url) throws SQLException {
        // the drivers are asked directly: DriverManager may not see them from a resource adapter's class loader
        for (java.sql.Driver d : new java.sql.Driver[] {new org.postgresql.Driver(), new org.mariadb.jdbc.Driver(),
                new org.apache.derby.jdbc.EmbeddedDriver()}) {
            if (d.acceptsURL(url)) {
                return d;
            }
        }
        return java.sql.DriverManager.getDriver(url);
    }
}
