package dev.cartograph.mock.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Ages as the API server prints them in Table cells ({@code ConvertToHumanReadableDateType} and
 * {@code HumanDuration} in k8s.io/apimachinery): {@code 45s}, {@code 5m12s}, {@code 3h20m},
 * {@code 4d2h}, {@code 2y3d}; {@code <unknown>} without a timestamp, {@code <invalid>} for one
 * that does not parse or lies more than 2 s in the future. Pure; thread-safe.
 */
final class Ages {
    static final String UNKNOWN = "<unknown>";
    static final String INVALID = "<invalid>";

    private Ages() {}

    /** The age at {@code now} of an RFC 3339 timestamp; {@code <unknown>} when absent or empty. */
    static String since(JsonNode timestamp, Instant now) {
        if (timestamp == null || !timestamp.isTextual() || timestamp.asText().isEmpty()) {
            return UNKNOWN;
        }
        return parse(timestamp.asText())
                .map(t -> human(Duration.between(t, now)))
                .orElse(INVALID);
    }

    static Optional<Instant> parse(String rfc3339) {
        try {
            return Optional.of(OffsetDateTime.parse(rfc3339).toInstant());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** {@code HumanDuration}: precision falls as the duration grows. */
    static String human(Duration d) {
        long seconds = d.getSeconds();
        if (seconds < -1) {
            return INVALID;
        }
        if (seconds < 0) {
            return "0s";
        }
        if (seconds < 120) {
            return seconds + "s";
        }
        long minutes = seconds / 60;
        if (minutes < 10) {
            return pair(minutes, "m", seconds % 60, "s");
        }
        if (minutes < 180) {
            return minutes + "m";
        }
        long hours = minutes / 60;
        if (hours < 8) {
            return pair(hours, "h", minutes % 60, "m");
        }
        if (hours < 48) {
            return hours + "h";
        }
        if (hours < 24 * 8) {
            return pair(hours / 24, "d", hours % 24, "h");
        }
        if (hours < 24 * 365 * 2) {
            return hours / 24 + "d";
        }
        if (hours < 24 * 365 * 8) {
            return pair(hours / 24 / 365, "y", (hours / 24) % 365, "d");
        }
        return hours / 24 / 365 + "y";
    }

    private static String pair(long major, String majorUnit, long minor, String minorUnit) {
        return minor == 0 ? major + majorUnit : major + majorUnit + minor + minorUnit;
    }
}
