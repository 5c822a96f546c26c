package io.aqueduct.api;

/**
 * Text that every store can keep as it is: no NUL character (PostgreSQL refuses it) and no half
 * of a surrogate pair (UTF-8 cannot encode it; a database would store a '?' instead, and a
 * correlation or name would silently stop matching).
 */
public final class StorableText {
    private StorableText() {
    }

    /** Refuses {@code value} with {@link AqError#INVALID_VALUE} when a store could not keep it exactly; null passes. */
    public static void check(String value, String what) {
        if (value == null) {
            return;
        }
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            if (ch == '\0') {
                throw new AqException(AqError.INVALID_VALUE, what + " cannot contain the NUL character (\\u0000).");
            }
            if (Character.isHighSurrogate(ch) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(ch)) {
                throw new AqException(AqError.INVALID_VALUE, what + " contains half of a surrogate pair at position " + i
                        + ": it is not valid Unicode text.");
            }
        }
    }
}
