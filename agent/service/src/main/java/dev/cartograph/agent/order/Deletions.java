package dev.cartograph.agent.order;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.protocol.Command;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What an agent remembers of the deletes it carried out: per placement, the {@link Stamp} of the last one, and up to
 * when it has forgotten older ones ({@code forgottenUpTo}, the newest issued time of a delete it let go of). From it,
 * {@link #refusal} tells a command read again from one the broker sent since. Pure and immutable; kept bounded by
 * {@link Limits}.
 */
public record Deletions(Map<String, Stamp> last, Optional<Instant> forgottenUpTo) {
    /** Nothing remembered and nothing forgotten: a member that never had this record. */
    public static final Deletions NONE = new Deletions(Map.of(), Optional.empty());

    /**
     * How long a command counts and how much is remembered. Immutable.
     *
     * @param maxAge     a command issued longer ago than this when it is read is refused (setting {@code
     *                   command-max-age}, default 7 days, Kafka's default {@code retention.ms}); a delete is remembered
     *                   this long plus {@link Stamp#CLOCK_MARGIN}
     * @param maxEntries at most this many placements are remembered; beyond it the oldest are forgotten early. 5,000
     *                   entries of about 100 bytes keep the record near half a megabyte, within a ConfigMap's 1 MiB
     */
    public record Limits(Duration maxAge, int maxEntries) {
        /** The shortest {@code maxAge}: a shorter one would refuse commands an agent merely read late. */
        public static final Duration MIN_AGE = Duration.ofHours(1);

        public static final Limits DEFAULT = new Limits(Duration.ofDays(7), 5_000);

        public Limits {
            Objects.requireNonNull(maxAge, "maxAge");
            if (maxAge.compareTo(MIN_AGE) < 0) {
                throw new IllegalArgumentException("command-max-age must be at least " + MIN_AGE + ", not " + maxAge
                        + ": a shorter one refuses commands an agent merely read late");
            }
            if (maxEntries < 1) {
                throw new IllegalArgumentException("at least one deletion must be remembered, not " + maxEntries);
            }
        }
    }

    public Deletions {
        last = Map.copyOf(last);
        Objects.requireNonNull(forgottenUpTo, "forgottenUpTo");
    }

    /**
     * Everything forgotten up to {@code now}: what a record that could not be read stands for. Commands issued before
     * {@code now} are refused (the broker sends a command again, with a new issued time, when it is not carried out).
     */
    public static Deletions forgottenAt(Instant now) {
        return new Deletions(Map.of(), Optional.of(now.minus(Stamp.CLOCK_MARGIN)));
    }

    /**
     * Why {@code command}, read at {@code now} (the agent's clock), is refused as STALE, if it is:
     * <ol>
     * <li>issued more than {@code maxAge} before {@code now}: only a command read again (its offset lost) is read that
     *     late, and whether its placement was deleted since may have been forgotten;</li>
     * <li>issued no later than {@link Stamp#CLOCK_MARGIN} after {@link #forgottenUpTo}: it may be ordered before a
     *     delete no longer remembered;</li>
     * <li>an apply ordered before the last delete carried out for its placement ({@link Stamp#before}): read again
     *     after that delete, it would create the deleted copy again.</li>
     * </ol>
     */
    public Optional<String> refusal(Command command, Instant now, Limits limits) {
        Instant issued = command.issued();
        if (issued.isBefore(now.minus(limits.maxAge()))) {
            return Optional.of("issued " + issued + ", more than " + hours(limits.maxAge())
                    + " (command-max-age) before it was read here at " + now
                    + ": only a command read again (its offset lost) is read so late; nothing is done");
        }
        if (forgottenUpTo.isPresent() && !issued.isAfter(forgottenUpTo.get().plus(Stamp.CLOCK_MARGIN))) {
            return Optional.of("issued " + issued + ", not " + Stamp.CLOCK_MARGIN.toMinutes()
                    + " minutes after the newest delete this agent no longer remembers (" + forgottenUpTo.get()
                    + "), so it cannot be told from a command read again: nothing is done");
        }
        Stamp deleted = last.get(command.placementId());
        if (command instanceof Command.Apply
                && deleted != null
                && Stamp.of(command).before(deleted)) {
            return Optional.of("placement " + command.placementId() + " was deleted here since, by "
                    + deleted.describe("delete") + "; nothing is created");
        }
        return Optional.empty();
    }

    /**
     * These deletions with {@code delete} carried out at {@code now}: remembered unless one ordered after it is
     * already, and every entry past {@code maxAge} plus the margin, or beyond {@code maxEntries}, forgotten.
     */
    public Deletions with(Command.Delete delete, Instant now, Limits limits) {
        Map<String, Stamp> next = new HashMap<>(last);
        next.merge(delete.placementId(), Stamp.of(delete), (had, added) -> had.before(added) ? added : had);
        return new Deletions(next, forgottenUpTo).pruned(now, limits);
    }

    /** Forgets the deletes issued before {@code now - maxAge - margin}, then the oldest beyond {@code maxEntries}. */
    public Deletions pruned(Instant now, Limits limits) {
        Instant cutoff = now.minus(limits.maxAge()).minus(Stamp.CLOCK_MARGIN);
        List<Map.Entry<String, Stamp>> newestFirst = new ArrayList<>(last.entrySet());
        newestFirst.sort(Comparator.comparing(
                        (Map.Entry<String, Stamp> e) -> e.getValue().issued())
                .reversed());
        Map<String, Stamp> kept = new HashMap<>();
        Optional<Instant> forgotten = forgottenUpTo;
        for (Map.Entry<String, Stamp> e : newestFirst) {
            Instant issued = e.getValue().issued();
            if (kept.size() < limits.maxEntries() && !issued.isBefore(cutoff)) {
                kept.put(e.getKey(), e.getValue());
            } else if (forgotten.isEmpty() || issued.isAfter(forgotten.get())) {
                forgotten = Optional.of(issued);
            }
        }
        return kept.size() == last.size() ? this : new Deletions(kept, forgotten);
    }

    /**
     * As stored: {@code {"forgottenUpTo":"…","placements":{"p-9":{"term":3,"epoch":2,"issued":"…"}}}} (placements in
     * order of id; {@code forgottenUpTo} absent when nothing was forgotten).
     */
    public String json() {
        ObjectNode o = Documents.json().createObjectNode();
        forgottenUpTo.ifPresent(f -> o.put("forgottenUpTo", f.toString()));
        ObjectNode placements = o.putObject("placements");
        new TreeMap<>(last)
                .forEach((id, s) -> placements
                        .putObject(id)
                        .put("term", s.term())
                        .put("epoch", s.epoch())
                        .put("issued", s.issued().toString()));
        return o.toString();
    }

    /** Reads what {@link #json} wrote. Throws IllegalArgumentException naming what is wrong. */
    public static Deletions parse(String json) {
        JsonNode o;
        try {
            o = Documents.json().readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
        }
        if (o == null || !o.isObject() || !o.path("placements").isObject()) {
            throw new IllegalArgumentException("no 'placements' object");
        }
        Map<String, Stamp> last = new HashMap<>();
        var fields = o.path("placements").fields();
        while (fields.hasNext()) {
            var e = fields.next();
            JsonNode s = e.getValue();
            if (!s.path("term").canConvertToLong() || !s.path("epoch").canConvertToLong()) {
                throw new IllegalArgumentException("placements." + e.getKey() + ": term and epoch must be numbers");
            }
            last.put(
                    e.getKey(),
                    new Stamp(
                            s.path("term").asLong(),
                            s.path("epoch").asLong(),
                            instant(s.path("issued"), "placements." + e.getKey() + ".issued")));
        }
        Optional<Instant> forgotten = o.has("forgottenUpTo")
                ? Optional.of(instant(o.path("forgottenUpTo"), "forgottenUpTo"))
                : Optional.empty();
        return new Deletions(last, forgotten);
    }

    private static String hours(Duration d) {
        return d.toMinutes() % 60 == 0 ? d.toHours() + " hours" : d.toMinutes() + " minutes";
    }

    private static Instant instant(JsonNode n, String field) {
        try {
            return Instant.parse(n.asText(""));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(field + " is not an ISO-8601 instant: '" + n.asText("") + "'", e);
        }
    }
}
