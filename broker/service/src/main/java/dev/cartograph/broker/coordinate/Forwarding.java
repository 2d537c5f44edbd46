package dev.cartograph.broker.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.placement.Demands;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.PlacementRecord;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Sends a placed hub object to its cluster's agent, as the manifest a member may create, and
 * remembers which generation went and when (so a change is forwarded once and an unanswered apply
 * is sent again). Coordinator thread only.
 */
final class Forwarding {
    private final Book book;
    private final Effects effects;
    private final Clock clock;

    Forwarding(Book book, Effects effects, Clock clock) {
        this.book = book;
        this.effects = effects;
        this.clock = clock;
    }

    /** Sends the object's current spec to the placement's cluster at the placement's epoch. */
    void apply(PlacementRecord p, HubObject object) {
        Instant now = clock.instant();
        String cluster = p.cluster().orElseThrow(() -> new IllegalStateException(p.target() + " is not placed"));
        effects.command(cluster, new Command.Apply(p.uid(), p.epoch(), now, manifest(object.raw())));
        book.forwarded(p.uid(), object.generation());
        book.sent(p, now);
    }

    /** Asks the placement's cluster to delete its copy, at the placement's epoch. */
    void delete(PlacementRecord p, String cluster) {
        Instant now = clock.instant();
        effects.command(cluster, new Command.Delete(p.uid(), p.epoch(), now));
        book.sent(p, now);
    }

    /** What is sent to the member: the hub object without server fields, status, or the broker's own marks. */
    static JsonNode manifest(JsonNode object) {
        ObjectNode copy = object.deepCopy();
        ObjectNode meta = copy.with("metadata");
        for (String field : new String[] {"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields", "finalizers",
                "deletionTimestamp", "deletionGracePeriodSeconds", "ownerReferences", "selfLink"}) {
            meta.remove(field);
        }
        for (String map : new String[] {"labels", "annotations"}) {
            if (meta.get(map) instanceof ObjectNode o) {
                Map<String, JsonNode> keep = new LinkedHashMap<>();
                o.fields().forEachRemaining(e -> {
                    if (!e.getKey().startsWith(Hub.PREFIX) || e.getKey().equals(Demands.CLUSTER_SELECTOR)
                            || e.getKey().equals(HubObject.PRIORITY_ANNOTATION)) {
                        keep.put(e.getKey(), e.getValue());
                    }
                });
                o.removeAll();
                o.setAll(keep);
                o.remove("kubectl.kubernetes.io/last-applied-configuration");
            }
        }
        copy.remove("status");
        return copy;
    }
}
