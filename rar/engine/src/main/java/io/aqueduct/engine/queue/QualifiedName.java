package io.aqueduct.engine.queue;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * An AQ object name, {@code [schema.]name}: identifiers start with a letter (any alphabet) and
 * continue with letters, digits, {@code _ $ #}; they are case-insensitive and kept upper-case, as Oracle keeps
 * unquoted identifiers. Queue and queue table names have at most 24 bytes, schemas 30.
 */
public record QualifiedName(String schema, String name) {
    private static final Pattern IDENTIFIER = Pattern.compile("\\p{L}[\\p{L}\\p{N}_$#]*");
    public static final int MAX_NAME_BYTES = 24;
    public static final int MAX_SCHEMA_BYTES = 30;
    /** Names the engine makes itself (AQ$_<table>_E) may be up to 30 bytes; so may names looked up. */
    public static final int MAX_LOOKUP_BYTES = 30;

    /** Parses a name a user creates something under. */
    public static QualifiedName forCreate(String text, String defaultSchema, String what) {
        return parse(text, defaultSchema, what, MAX_NAME_BYTES);
    }

    /** Parses a name a user refers to. */
    public static QualifiedName forLookup(String text, String defaultSchema, String what) {
        return parse(text, defaultSchema, what, MAX_LOOKUP_BYTES);
    }

    private static QualifiedName parse(String text, String defaultSchema, String what, int maxNameBytes) {
        if (text == null || text.isBlank()) {
            throw new AqException(AqError.INVALID_NAME, "A " + what + " name is required.");
        }
        String trimmed = text.strip(); // whitespace only: a NUL or other control character stays and is refused
        int dot = trimmed.indexOf('.');
        String schema = dot < 0 ? defaultSchema : trimmed.substring(0, dot);
        String name = dot < 0 ? trimmed : trimmed.substring(dot + 1);
        // checked as stored: upper-casing may lengthen a name ('ß' becomes 'SS')
        String upperSchema = schema.toUpperCase(Locale.ROOT);
        String upperName = name.toUpperCase(Locale.ROOT);
        check(upperSchema, "schema", MAX_SCHEMA_BYTES, text);
        check(upperName, what, maxNameBytes, text);
        return new QualifiedName(upperSchema, upperName);
    }

    /** A schema name as given (not trimmed), upper-cased: a letter, then letters, digits, _ $ #; at most 30 bytes. */
    public static String schema(String text) {
        if (text == null || text.isEmpty()) {
            throw new AqException(AqError.INVALID_NAME, "A schema name is required.");
        }
        String upper = text.toUpperCase(Locale.ROOT);
        check(upper, "schema", MAX_SCHEMA_BYTES, text);
        return upper;
    }

    private static void check(String part, String what, int maxBytes, String whole) {
        if (!IDENTIFIER.matcher(part).matches()) {
            throw new AqException(AqError.INVALID_NAME, "'" + whole + "' is not a valid " + what
                    + " name: use a letter followed by letters, digits, _, $ or #.");
        }
        int bytes = part.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > maxBytes) {
            throw new AqException(AqError.NAME_TOO_LONG, "The " + what + " name '" + part + "' has " + bytes
                    + " bytes (upper-cased, in UTF-8); at most " + maxBytes + " are allowed.");
        }
    }

    @Override
    public String toString() {
        return schema + "." + name;
    }
}
