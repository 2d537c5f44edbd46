package dev.cartograph.mock.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Event columns after the API server's event printer, for core/v1 and events.k8s.io/v1 events
 * alike (the latter's {@code regarding}, {@code note}, {@code deprecated*} fields are read where
 * the core ones are absent): Last Seen, Type, Reason, Object ({@code kind/name}, kind in lower
 * case), Message, and for {@code -o wide} Subobject, Source, First Seen, Count, Name. Pure; thread-safe.
 */
final class EventColumns {
    private EventColumns() {}

    static List<Column> all() {
        return List.of(
                Column.text("Last Seen", 0, "Time when last event occurred", EventColumns::lastSeen),
                Column.text(
                        "Type",
                        0,
                        "Type of this event.",
                        (e, now) -> Cells.text(e.path("type").asText())),
                Column.text(
                        "Reason",
                        0,
                        "Reason is why the action was taken.",
                        (e, now) -> Cells.text(e.path("reason").asText())),
                Column.text("Object", 0, "Object this event is about.", (e, now) -> Cells.text(object(e))),
                Column.text(
                        "Subobject",
                        1,
                        "Detailed object this event is about.",
                        (e, now) -> Cells.text(regarding(e).path("fieldPath").asText())),
                Column.text("Source", 1, "Component that generated this event.", (e, now) -> Cells.text(source(e))),
                Column.text(
                        "Message",
                        0,
                        "A human-readable description of the status of this operation.",
                        (e, now) ->
                                Cells.text(either(e, "message", "note").asText().strip())),
                Column.text("First Seen", 1, "Time when first event occurred", EventColumns::firstSeen),
                new Column("Count", "integer", "", "Number of events", 1, (e, now) -> Cells.integer(count(e))),
                new Column(
                        "Name",
                        "string",
                        "name",
                        "Name of the event",
                        1,
                        (e, now) -> Cells.text(e.path("metadata").path("name").asText())));
    }

    static String object(JsonNode event) {
        JsonNode regarding = regarding(event);
        String kind = regarding.path("kind").asText().toLowerCase(Locale.ROOT);
        String name = regarding.path("name").asText();
        return name.isEmpty() ? kind : kind + "/" + name;
    }

    private static JsonNode lastSeen(JsonNode event, Instant now) {
        JsonNode series = event.path("series");
        if (series.hasNonNull("lastObservedTime")) {
            return Cells.text(Ages.since(series.get("lastObservedTime"), now));
        }
        JsonNode last = either(event, "lastTimestamp", "deprecatedLastTimestamp");
        return last.isTextual() && !last.asText().isEmpty() ? Cells.text(Ages.since(last, now)) : firstSeen(event, now);
    }

    private static JsonNode firstSeen(JsonNode event, Instant now) {
        JsonNode first = either(event, "firstTimestamp", "deprecatedFirstTimestamp");
        return Cells.text(
                Ages.since(first.isTextual() && !first.asText().isEmpty() ? first : event.get("eventTime"), now));
    }

    private static long count(JsonNode event) {
        if (event.path("series").has("count")) {
            return event.path("series").path("count").asLong();
        }
        long count = either(event, "count", "deprecatedCount").asLong(0);
        return count == 0 ? 1 : count;
    }

    private static String source(JsonNode event) {
        JsonNode source = either(event, "source", "deprecatedSource");
        String component = source.path("component").asText();
        if (component.isEmpty()) {
            component = event.path("reportingController").asText();
        }
        String host = source.path("host").asText();
        if (host.isEmpty()) {
            host = event.path("reportingInstance").asText();
        }
        return host.isEmpty() ? component : component + ", " + host;
    }

    private static JsonNode regarding(JsonNode event) {
        return either(event, "involvedObject", "regarding");
    }

    /** The core/v1 field, or the events.k8s.io/v1 one when the core one is absent. */
    private static JsonNode either(JsonNode event, String core, String eventsV1) {
        return event.hasNonNull(core) ? event.get(core) : event.path(eventsV1);
    }
}
