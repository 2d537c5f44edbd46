package dev.cartograph.mock.watch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.mock.selector.FieldSelector;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.Objects;
import java.util.Optional;

/**
 * What one watch asks for: a CRUD-store query (type, namespace, label selector: matched exactly as
 * the store's own lists match) and a field selector on any field (as {@code ResourceReads} filters
 * lists). Decides which event, if any, a change is for this watch, as a real API server does: an
 * object entering the selection is ADDED, one staying in it MODIFIED, one leaving it or deleted is
 * DELETED (its last state carrying the change's resourceVersion). Immutable; thread-safe.
 */
public record Selection(AttributeSet query, FieldSelector fields) {
    public Selection {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(fields, "fields");
    }

    public boolean matches(Stored stored) {
        return stored.key().matches(query) && (fields.requirements().isEmpty() || fields.matches(stored.object()));
    }

    /**
     * Whether {@code change} may concern this selection: its object's key (type, namespace, name, labels) matches
     * before or after. Cheap (no JSON is read), so a watch can drop most changes before handing them on.
     */
    public boolean mayConcern(Change change) {
        return change.before().map(b -> b.key().matches(query)).orElse(false)
                || change.after().map(a -> a.key().matches(query)).orElse(false);
    }

    /** The event this watch sees for {@code change}; empty when the object is outside the selection before and after. */
    public Optional<WatchEvent> eventFor(Change change) {
        boolean before = change.before().map(this::matches).orElse(false);
        boolean after = change.after().map(this::matches).orElse(false);
        if (before && after) {
            return Optional.of(new WatchEvent(
                    WatchEvent.Type.MODIFIED, change.after().get().object()));
        }
        if (after) {
            return Optional.of(
                    new WatchEvent(WatchEvent.Type.ADDED, change.after().get().object()));
        }
        if (before) {
            JsonNode last = change.before().get().object();
            if (last.path("metadata").isObject()) {
                ((ObjectNode) last.get("metadata")).put("resourceVersion", String.valueOf(change.resourceVersion()));
            }
            return Optional.of(new WatchEvent(WatchEvent.Type.DELETED, last));
        }
        return Optional.empty();
    }
}
