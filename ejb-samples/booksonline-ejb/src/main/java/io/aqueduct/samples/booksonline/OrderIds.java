package io.aqueduct.samples.booksonline;

import java.security.SecureRandom;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * BooksOnLine's order ids: the booking time in UTC to the millisecond, then 32 random bits, e.g.
 * {@code 20261204-071530123-9f86d081}. They sort by time, and stay unique across runs, redeploys and the
 * instances of a deployment group without a shared counter (a database sequence is per store, and the
 * sample's database is per instance): two ids collide only if two bookings in the same millisecond draw
 * the same random number.
 */
public final class OrderIds {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmssSSS");
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A new order id. */
    public static String next() {
        return TIME.format(ZonedDateTime.now(ZoneOffset.UTC)) + "-" + String.format("%08x", RANDOM.nextInt());
    }

    private OrderIds() {
    }
}
