package io.aqueduct.engine.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The engine's SQL, one named statement per operation, read once from
 * {@code io/aqueduct/engine/store/statements.properties} (the model: ActiveMQ Artemis's JDBC SQL
 * provider). A statement is looked up for one database: {@code name@database} (database =
 * {@link Dialect#database()}: {@code derby}, {@code postgresql}, {@code mariadb}) when the file has it,
 * else the generic {@code name}. An unknown name is an {@link IllegalStateException} at first use.
 *
 * <p>Get statements through the dialect: {@code dialect.sql("time.dueMessages")}, or
 * {@code dialect.sql("time.dueMessages", 200)} when the statement has a row limit. The placeholders
 * (documented at the top of the file) are replaced here:
 * <ul>
 * <li>{@code {dirtyRead}}, {@code {skipLocked}}, {@code {timeManagerBatch}}: the dialect's
 * {@link Dialect#dirtyReadSuffix()}, {@link Dialect#lockSkipLockedSuffix()},
 * {@link Dialect#timeManagerBatchSuffix()} (a statement with {@code {skipLocked}} is for shared stores
 * only: on Derby it fails with {@link UnsupportedOperationException});</li>
 * <li>{@code {limit}}: {@link Dialect#limit(int)} of the rows given to {@link #sql(String, int)} (a
 * statement with it must be asked with a row count, one without it without);</li>
 * <li>{@code {ids}}: left in place; {@link #ids(String, int)} makes it {@code ?, ?, ...} for a list of
 * parameters (an {@code IN} list);</li>
 * <li>{@code {candidates}}: left in place; the caller puts the where and order parts of a candidate
 * read there ({@code selection.take}).</li>
 * </ul>
 *
 * <p>An INSERT that ends in its row's {@code VALUES (?, ...)} can write several rows at once:
 * {@link #rows(String, int)} repeats the row.
 *
 * <p>State codes are never written into the text: a statement says {@code STATE = ?} and the caller
 * binds {@code MessageState.READY.code()} or {@code ConsumerStates.READY}.
 */
public final class Statements {
    /** Where the statements are, on the class path. */
    static final String RESOURCE = "statements.properties";
    /** Separates a statement's name from the database its override is for. */
    static final char OVERRIDE = '@';
    /** The databases an override may name. */
    static final java.util.List<String> DATABASES = java.util.List.of("derby", "postgresql", "mariadb");
    /** The placeholders a statement may use. */
    static final java.util.Set<String> PLACEHOLDERS = java.util.Set.of("dirtyRead", "skipLocked", "timeManagerBatch",
            "limit", "ids", "rows", "candidates");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z]+)}");
    private static final Map<String, String> TEXT = load();

    private final Dialect dialect;
    private final Map<String, String> resolved = new ConcurrentHashMap<>();

    /** The statements of one dialect; each dialect keeps one (resolved texts are cached here). */
    Statements(Dialect dialect) {
        this.dialect = dialect;
    }

    /**
     * The statement {@code name} for this database, its dialect placeholders replaced.
     *
     * @throws IllegalStateException when the file has no such statement, or it needs a row limit
     */
    public String sql(String name) {
        String sql = resolved.computeIfAbsent(name, this::resolve);
        if (sql.contains("{limit}")) {
            throw new IllegalStateException("The statement " + name + " has a row limit: ask for it with sql(name, rows)");
        }
        return sql;
    }

    /**
     * The statement {@code name}, its {@code {limit}} made a limit of {@code rows} rows.
     *
     * @throws IllegalStateException when the file has no such statement, or it has no {@code {limit}}
     */
    public String sql(String name, int rows) {
        String sql = resolved.computeIfAbsent(name, this::resolve);
        if (!sql.contains("{limit}")) {
            throw new IllegalStateException("The statement " + name + " has no {limit}: ask for it with sql(name)");
        }
        return sql.replace("{limit}", dialect.limit(rows));
    }

    /** Replaces the {@code {ids}} of {@code sql} by {@code count} (at least 1) parameter markers. */
    public static String ids(String sql, int count) {
        if (count < 1 || !sql.contains("{ids}")) {
            throw new IllegalArgumentException("Need {ids} and at least one id, not " + count + ": " + sql);
        }
        return sql.replace("{ids}", "?, ".repeat(count - 1) + "?");
    }

    /**
     * {@code sql} with its {@code {rows}} made {@code count} rows of {@code columns} parameters each
     * ({@code (?, ?), (?, ?)}): a multi-row INSERT whose text goes on after its rows (an upsert's clause).
     */
    public static String rows(String sql, int count, int columns) {
        if (count < 1 || columns < 1 || !sql.contains("{rows}")) {
            throw new IllegalArgumentException("Need {rows} and at least one row of one column, not " + count + " of "
                    + columns + ": " + sql);
        }
        String row = "(" + "?, ".repeat(columns - 1) + "?)";
        return sql.replace("{rows}", String.join(", ", java.util.Collections.nCopies(count, row)));
    }

    /**
     * {@code sql}, an INSERT that ends in its one row's {@code VALUES (?, ...)}, made to insert
     * {@code count} (at least 1) rows: the row's parameter list repeated.
     */
    public static String rows(String sql, int count) {
        int values = sql.lastIndexOf(" VALUES (");
        if (count < 1 || values < 0 || !sql.endsWith(")")) {
            throw new IllegalArgumentException("Need an INSERT ending in VALUES (...) and at least one row, not " + count
                    + ": " + sql);
        }
        String row = sql.substring(values + " VALUES ".length());
        StringBuilder out = new StringBuilder(sql.length() + (row.length() + 2) * (count - 1)).append(sql);
        for (int i = 1; i < count; i++) {
            out.append(", ").append(row);
        }
        return out.toString();
    }

    private String resolve(String name) {
        String text = text(name, dialect.database());
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = switch (m.group(1)) {
                case "dirtyRead" -> dialect.dirtyReadSuffix();
                case "skipLocked" -> dialect.lockSkipLockedSuffix();
                case "timeManagerBatch" -> dialect.timeManagerBatchSuffix();
                default -> {
                    if (!PLACEHOLDERS.contains(m.group(1))) {
                        throw new IllegalStateException("The statement " + name + " has an unknown placeholder " + m.group());
                    }
                    yield m.group(); // filled per call
                }
            };
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** The raw text of {@code name} for {@code database}: its override, else the generic statement. */
    static String text(String name, String database) {
        String text = TEXT.get(name + OVERRIDE + database);
        if (text == null) {
            text = TEXT.get(name);
        }
        if (text == null || name.indexOf(OVERRIDE) >= 0) {
            throw new IllegalStateException("No SQL statement named " + name + " in " + RESOURCE);
        }
        return text;
    }

    /** Every entry of the file (generic names and overrides), for checks. */
    static Map<String, String> all() {
        return TEXT;
    }

    private static Map<String, String> load() {
        Properties p = new Properties();
        try (InputStream in = Statements.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("The engine's SQL statements (" + RESOURCE + ") are missing from its jar");
            }
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read the engine's SQL statements: " + e.getMessage(), e);
        }
        Map<String, String> text = new TreeMap<>();
        for (String name : p.stringPropertyNames()) {
            // values are trimmed: a statement built from parts joins them with one space
            text.put(name, p.getProperty(name).trim().replaceAll("\\s+", " "));
        }
        return Collections.unmodifiableMap(text);
    }
}
