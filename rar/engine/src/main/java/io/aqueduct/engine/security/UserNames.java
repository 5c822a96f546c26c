package io.aqueduct.engine.security;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * User, grantee and agent names: identifiers as AQ's unquoted names (a letter, then letters,
 * digits, {@code _ $ #}; at most 30 bytes), kept upper-case. A session's user may be any text: it
 * is compared upper-cased, so a session opened as {@code alice} is the grantee {@code ALICE}.
 */
final class UserNames {
    static final String PUBLIC = "PUBLIC";
    private static final Pattern IDENTIFIER = Pattern.compile("\\p{L}[\\p{L}\\p{N}_$#]*");
    private static final int MAX_BYTES = 30;

    private UserNames() {
    }

    /** A session user as grants name it. */
    static String normalize(String user) {
        return user == null ? null : user.strip().toUpperCase(Locale.ROOT);
    }

    /** A name given to an administrative call ({@code what}: "grantee", "agent", "database user"), checked and upper-cased. */
    static String check(String text, String what) {
        if (text == null || text.isBlank()) {
            throw new AqException(AqError.INVALID_NAME, "A " + what + " name is required.");
        }
        String upper = text.strip().toUpperCase(Locale.ROOT);
        if (!IDENTIFIER.matcher(upper).matches()) {
            throw new AqException(AqError.INVALID_NAME, "'" + text + "' is not a valid " + what
                    + " name: use a letter followed by letters, digits, _, $ or #.");
        }
        int bytes = upper.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_BYTES) {
            throw new AqException(AqError.NAME_TOO_LONG, "The " + what + " name '" + upper + "' has " + bytes
                    + " bytes (upper-cased, in UTF-8); at most " + MAX_BYTES + " are allowed.");
        }
        return upper;
    }
}
