package io.aqueduct.http;

import jakarta.servlet.ServletContext;
import java.time.Duration;

/**
 * The WAR's limits and names, from its context parameters (WEB-INF/web.xml; on Payara a deployed application's
 * value is changed with {@code asadmin set-web-context-param}). A value that is not a positive number stops the
 * deployment with a sentence naming the parameter: a limit silently replaced by a default is a limit nobody set.
 */
public record HttpAccessSettings(long maxBodyBytes, Duration transactionTimeout, int maxTransactionsPerUser,
        long maxWaitSeconds, int maxBatch, Duration agentCacheTime, String connectionFactory) {

    public static final String PREFIX = "io.aqueduct.http.";

    public static HttpAccessSettings of(ServletContext context) {
        return new HttpAccessSettings(
                positive(context, "maxBodyBytes", 1_048_576),
                Duration.ofSeconds(positive(context, "transactionTimeoutSeconds", 180)),
                (int) positive(context, "maxTransactionsPerUser", 8),
                positive(context, "maxWaitSeconds", 60),
                (int) positive(context, "maxBatch", 100),
                Duration.ofSeconds(positive(context, "agentCacheSeconds", 10)),
                text(context, "connectionFactory"));
    }

    private static long positive(ServletContext context, String name, long fallback) {
        String value = context.getInitParameter(PREFIX + name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            long n = Long.parseLong(value.trim());
            if (n > 0 && n <= Integer.MAX_VALUE) {
                return n;
            }
        } catch (NumberFormatException e) {
            // the sentence below says what is wanted
        }
        throw new IllegalArgumentException("Context parameter " + PREFIX + name + " is '" + value
                + "': give a whole number from 1 to " + Integer.MAX_VALUE + ".");
    }

    private static String text(ServletContext context, String name) {
        String value = context.getInitParameter(PREFIX + name);
        return value == null || value.isBlank() ? null : value.trim();
    }
}
