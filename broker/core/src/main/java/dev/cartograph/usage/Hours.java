package dev.cartograph.usage;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/** Hourly UTC buckets: where an instant's hour starts, and how an interval splits across hours. */
public final class Hours {
    static final long HOUR_MILLIS = 3_600_000L;

    private Hours() {}

    /** The start of the UTC hour {@code t} falls in. */
    public static Instant bucket(Instant t) {
        return t.truncatedTo(ChronoUnit.HOURS);
    }

    /**
     * The milliseconds of {@code [from, to)} in each UTC hour they touch, in order; empty when {@code to} is not
     * after {@code from}. Counted on whole epoch milliseconds, so splitting an interval at any instant gives
     * parts that add up to the whole exactly.
     */
    static Map<Instant, Long> split(Instant from, Instant to) {
        Map<Instant, Long> out = new LinkedHashMap<>();
        long end = to.toEpochMilli();
        long at = from.toEpochMilli();
        while (at < end) {
            long hour = Math.floorDiv(at, HOUR_MILLIS) * HOUR_MILLIS;
            long next = Math.min(end, hour + HOUR_MILLIS);
            out.put(Instant.ofEpochMilli(hour), next - at);
            at = next;
        }
        return out;
    }
}
