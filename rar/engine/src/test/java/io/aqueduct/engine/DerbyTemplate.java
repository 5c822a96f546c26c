package io.aqueduct.engine;

import io.aqueduct.engine.store.DerbyDialect;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Fresh in-memory Derby stores for the engine tests, copied from one store migrated once per JVM.
 *
 * <p>Each test still gets a database of its own, empty and at the current schema, exactly as the
 * engine's own migration leaves a new database (the copy is of a database that
 * {@link DerbyDialect#migrateSchema} brought from nothing, as the engine does at start). What it
 * saves is that migration's DDL, most of the store's part of a Derby test's set-up (measured: about
 * 0.2 s of CPU a test). The engine's start on an empty database stays proven by the tests that open
 * their own (StoreSchemaTest and others).
 */
final class DerbyTemplate {
    private static Path backup;

    private DerbyTemplate() {
    }

    /** Creates the in-memory database {@code name} as a copy of the migrated template; the engine opens it as existing. */
    static void copyTo(String name) throws SQLException {
        DriverManager.getConnection("jdbc:derby:memory:" + name + ";createFrom=" + template()).close();
    }

    private static synchronized Path template() throws SQLException {
        if (backup == null) {
            String name = "aqtemplate_" + ProcessHandle.current().pid();
            Path dir;
            try {
                dir = Files.createTempDirectory("aqueduct-derby-template-");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteQuietly(dir), "derby-template-cleanup"));
            DerbyDialect dialect = DerbyDialect.inMemory(name); // first: it keeps derby.log out of the working directory
            try (Connection c = DriverManager.getConnection("jdbc:derby:memory:" + name + ";create=true")) {
                c.setAutoCommit(false);
                dialect.migrateSchema(c, 0); // what the engine's start runs on an empty database
                c.commit();
                try (CallableStatement backupCall = c.prepareCall("CALL SYSCS_UTIL.SYSCS_BACKUP_DATABASE(?)")) {
                    backupCall.setString(1, dir.toString());
                    backupCall.execute();
                }
            }
            dialect.shutdown(); // drops the in-memory original; the backup is the template
            backup = dir.resolve(name);
        }
        return backup;
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory: the OS reclaims it
        }
    }
}
