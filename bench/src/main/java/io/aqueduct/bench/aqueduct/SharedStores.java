package io.aqueduct.bench.aqueduct;

import io.aqueduct.bench.BenchStore;
import io.aqueduct.engine.AqueductEngine;
import io.aqueduct.engine.store.Dialects;
import io.aqueduct.engine.store.JdbcSettings;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Engines on the benchmark's stores: Derby in a directory, or the benchmark's place on a server. */
final class SharedStores {
    private SharedStores() {
    }

    static JdbcSettings settings(BenchStore store) {
        return new JdbcSettings(store.url, store.user, store.password);
    }

    /** Drops every Aqueduct table and view of the benchmark's place on the server (what an earlier run left). */
    static void empty(BenchStore store) throws SQLException {
        try (Connection c = store.connect()) {
            if (!hasAqueductTables(c)) {
                return; // nothing to drop (and dropStore's probe of AQ_QUEUE_TABLE would make the MariaDB driver log a warning)
            }
            c.setAutoCommit(false);
            Dialects.forJdbc(settings(store)).dropStore(c);
        }
    }

    private static boolean hasAqueductTables(Connection c) throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        // PostgreSQL: the connection's schema; MariaDB: the connection's database (its "catalog")
        String catalog = c.getCatalog();
        String schema = c.getSchema();
        boolean mariaDb = md.getDatabaseProductName().toLowerCase(java.util.Locale.ROOT).matches(".*(mariadb|mysql).*");
        try (ResultSet rs = md.getTables(mariaDb ? catalog : null, mariaDb ? null : schema, "%", null)) {
            while (rs.next()) {
                String name = rs.getString("TABLE_NAME");
                if (name != null && name.toUpperCase(java.util.Locale.ROOT).startsWith("AQ_")) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * An engine on {@code store}: Derby in {@code dir}/db, or the server's benchmark place with queue
     * names in schema {@value BenchStore#SCHEMA}.
     */
    static AqueductEngine engine(BenchStore store, Path dir) {
        return engine(store, dir, AqueductEngine.Builder.DEFAULT_MAX_BUFFERED_BYTES);
    }

    /** As {@link #engine(BenchStore, Path)}, its buffered messages taking up to {@code maxBufferedBytes}. */
    static AqueductEngine engine(BenchStore store, Path dir, long maxBufferedBytes) {
        if (!store.shared()) {
            return AqueductEngine.builder().derbyDirectory(dir.resolve("db")).maxBufferedBytes(maxBufferedBytes).start();
        }
        return AqueductEngine.builder().jdbc(store.url, store.user, store.password).defaultSchema(BenchStore.SCHEMA)
                .maxBufferedBytes(maxBufferedBytes).start();
    }
}
