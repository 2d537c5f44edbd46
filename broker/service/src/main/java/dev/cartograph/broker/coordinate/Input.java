package dev.cartograph.broker.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.WorkloadKey;
import dev.cartograph.protocol.WorkloadSummary;
import java.util.Optional;
import java.util.Set;

/** Everything that reaches the coordinator's one thread, from Kafka, the hub, the lease and the clock. Immutable. */
public sealed interface Input {
    /**
     * A cluster's summary, with the names of the nodes added, changed or removed since the previous summary
     * of that cluster ({@code changedNodes}); empty when any may have (the first one read, an agent restart).
     */
    record Cluster(ClusterSummary summary, Optional<Set<String>> changedNodes) implements Input {
        public Cluster {
            changedNodes = changedNodes.map(Set::copyOf);
        }

        /** A summary whose every node may have changed. */
        public Cluster(ClusterSummary summary) {
            this(summary, Optional.empty());
        }
    }

    /** A member workload's summary; empty when the agent wrote a tombstone (it is gone). */
    record Workload(WorkloadKey key, Optional<WorkloadSummary> summary) implements Input {}

    record Result(CommandResult result) implements Input {}

    /** A placement record read back from the placements topic (what another leader, or an earlier run, decided). */
    record Placement(String uid, Optional<PlacementRecord> record) implements Input {}

    /** Every topic has been read up to where it stood at start. */
    record CaughtUp() implements Input {}

    /** Every record committed when mark {@code id} was asked for has been read (a new leader's catch-up). */
    record Marked(long id) implements Input {}

    /** A hub object was added or changed (incl. marked for deletion). */
    record HubChanged(JsonNode object) implements Input {}

    /** A ConfigMap, Secret, ServiceAccount or PersistentVolumeClaim on the hub was added, changed or deleted. */
    record DependencyChanged(dev.cartograph.interpreter.dependency.Dependency.Kind kind, String namespace, String name)
            implements Input {}

    /** A hub object is gone. */
    record HubDeleted(JsonNode object) implements Input {}

    /**
     * The hub's federated objects of these kinds ({@code group/Kind}) are all known to this instance now: their watches
     * have listed them (and the hub's namespaces). Sent again every 15 s, so that what vanished from the hub
     * while nobody acted is found.
     */
    record HubListed(Set<String> kinds) implements Input {
        public HubListed {
            kinds = Set.copyOf(kinds);
        }
    }

    /**
     * The placements topic this instance read was deleted, or deleted and created again, while it ran: what it holds
     * of every placement is no longer durable ({@code reason} says what was found).
     */
    record PlacementsLost(String reason) implements Input {}

    /**
     * This instance gained or lost the leader lease, in leader term {@code term} (post it through
     * {@link Coordinator#leading}, which stops writes at once when the lease is lost).
     */
    record Leading(boolean leading, long term) implements Input {
        public Leading(boolean leading) {
            this(leading, 0);
        }
    }

    /** The definitions changed (Karta objects on the hub): interpret with these from now on. */
    record Definitions(dev.cartograph.interpreter.Definitions definitions) implements Input {}

    /**
     * The hub's {@code queues.cartograph.dev} objects, all of them as they are now (ADR 0006), and the labels of the
     * hub's namespaces when some Queue selects namespaces by label (empty otherwise).
     */
    record Queues(java.util.List<JsonNode> queues, java.util.Map<String, java.util.Map<String, String>> namespaceLabels)
            implements Input {
        public Queues {
            queues = java.util.List.copyOf(queues);
            namespaceLabels = java.util.Map.copyOf(namespaceLabels);
        }
    }

    record Tick() implements Input {}

    /** Runs on the coordinator's thread (for reads that must see one consistent state). */
    record Call(Runnable action) implements Input {}
}
