package dev.cartograph.broker.api;

import dev.cartograph.usage.Grouping;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code GET /api/v1/usage}'s parameters, read: {@code since} an ISO instant ({@code 2026-12-01T00:00:00Z}) or a
 * duration back from now ({@code 7d}, {@code 24h}, {@code 90m}, or ISO {@code P7D}); {@code by} {@code queue} (the
 * default) or {@code namespace}. Immutable.
 */
record UsageQuery(Instant since, Grouping by) {
    private static final Pattern SHORT = Pattern.compile("(\\d{1,6})([dhm])");

    sealed interface Read permits Ok, Bad {}

    record Ok(UsageQuery query) implements Read {}

    record Bad(String reason) implements Read {}

    static Read read(String since, String by, Instant now) {
        if (since == null || since.isBlank()) {
            return new Bad("since is required: an ISO instant (2026-12-01T00:00:00Z) or a duration back from now"
                    + " (7d, 24h, 90m)");
        }
        Optional<Grouping> grouping = by == null || by.isBlank() ? Optional.of(Grouping.QUEUE) : Grouping.parse(by);
        if (grouping.isEmpty()) {
            return new Bad("by must be queue or namespace, not '" + by + "'");
        }
        Optional<Instant> from = instant(since.trim(), now);
        if (from.isEmpty()) {
            return new Bad("since '" + since + "' is neither an ISO instant (2026-12-01T00:00:00Z) nor a duration"
                    + " (7d, 24h, 90m, P7D)");
        }
        if (from.get().isAfter(now)) {
            return new Bad("since " + from.get() + " is in the future (now " + now + ")");
        }
        return new Ok(new UsageQuery(from.get(), grouping.get()));
    }

    private static Optional<Instant> instant(String text, Instant now) {
        Matcher m = SHORT.matcher(text);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            Duration d = switch (m.group(2)) {
                case "d" -> Duration.ofDays(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofMinutes(n);
            };
            return Optional.of(now.minus(d));
        }
        try {
            if (text.startsWith("P") || text.startsWith("p")) {
                Duration d = Duration.parse(text);
                return d.isNegative() ? Optional.empty() : Optional.of(now.minus(d));
            }
            return Optional.of(Instant.parse(text));
        } catch (DateTimeParseException | ArithmeticException e) {
            return Optional.empty();
        }
    }
}
