package dev.cartograph.fleet;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.placement.Decision;
import dev.cartograph.placement.PodDemand;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.PlacementReport;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Fleet state with exactly one writer: agent summaries and the broker's own reservations go in
 * here, in order, on the writer's thread; every change publishes an immutable {@link FleetSnapshot}
 * that any thread may read. Writer methods are not thread-safe (one writer by contract);
 * {@link #snapshot()} is.
 */
public final class Fleet {
    /** Whether a summary was taken or ignored as older than what is held. */
    public enum Outcome {
        ACCEPTED,
        STALE
    }

    private final Map<String, ClusterSummary> clusters = new HashMap<>();
    private final Map<String, Reservation> reservations = new HashMap<>();
    private final Map<String, Instant> received = new HashMap<>();
    /** Per cluster, each node's position in its newest summary, by name (built once per summary, used by every planning view). */
    private final Map<String, Map<String, Integer>> nodeIndex = new HashMap<>();

    private final AtomicReference<FleetSnapshot> published = new AtomicReference<>(FleetSnapshot.EMPTY);

    public FleetSnapshot snapshot() {
        return published.get();
    }

    /**
     * Takes a cluster summary unless it is older than the one held: within an incarnation by
     * sequence, across incarnations (a restarted agent) by heartbeat time. Releases reservations
     * the agent now accounts for.
     */
    public Outcome accept(ClusterSummary s) {
        return accept(s, s.heartbeat());
    }

    /**
     * Takes a cluster summary as {@link #accept(ClusterSummary)} does, and notes when it was received
     * by the reader's own clock: readiness is judged from that, never from the agent's clock, so
     * clock skew between an agent and the broker cannot make a healthy cluster look lost. A summary
     * read back from history rather than live should be given a receive time that does not make its
     * cluster look ready (e.g. {@link Instant#EPOCH}).
     */
    public Outcome accept(ClusterSummary s, Instant receivedAt) {
        return accept(s, receivedAt, null);
    }

    /**
     * As {@link #accept(ClusterSummary, Instant)}, told which nodes changed since this cluster's previous
     * summary ({@code changedNodes}: names of nodes added, changed or removed; {@code null} when unknown,
     * e.g. after an agent restart), so only those need to be looked at again.
     */
    public Outcome accept(ClusterSummary s, Instant receivedAt, java.util.Set<String> changedNodes) {
        ClusterSummary held = clusters.get(s.cluster());
        if (held != null
                && (held.incarnation().equals(s.incarnation())
                        ? s.sequence() <= held.sequence()
                        : !s.heartbeat().isAfter(held.heartbeat()))) {
            return Outcome.STALE;
        }
        clusters.put(s.cluster(), s);
        received.put(s.cluster(), receivedAt);
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < s.nodes().size(); i++) {
            index.put(s.nodes().get(i).name(), i);
        }
        nodeIndex.put(s.cluster(), index);
        for (PlacementReport p : s.placements()) {
            Reservation r = reservations.get(p.placementId());
            if (r != null && r.cluster().equals(s.cluster()) && p.epoch() >= r.epoch() && p.pendingPods() == 0) {
                reservations.remove(p.placementId());
            }
        }
        publish();
        return Outcome.ACCEPTED;
    }

    /** Reserves what a placement decision assigned, node by node, until the agent accounts for it. */
    public Reservation reserve(String placementId, long epoch, Decision.Placed decision, List<PodDemand> demand) {
        Reservation r = new Reservation(placementId, decision.cluster(), epoch, perNode(decision, demand));
        reservations.put(placementId, r);
        publish();
        return r;
    }

    /**
     * Adds what a change to a placed gang needs beyond what it had (its added pods, placed by
     * {@code decision} on its own cluster) to the placement's reservation, now held at {@code epoch}
     * (the change's): only a summary from after the agent applied the change releases it.
     */
    public Reservation extend(
            String placementId, String cluster, long epoch, Decision.Placed decision, List<PodDemand> added) {
        Map<String, ResourceList> perNode = new HashMap<>(perNode(decision, added));
        Reservation held = reservations.get(placementId);
        if (held != null && held.cluster().equals(cluster)) {
            held.perNode().forEach((node, amount) -> perNode.merge(node, amount, ResourceList::plus));
        }
        Reservation r = new Reservation(placementId, cluster, epoch, perNode);
        reservations.put(placementId, r);
        publish();
        return r;
    }

    private static Map<String, ResourceList> perNode(Decision.Placed decision, List<PodDemand> demand) {
        Map<String, ResourceList> perNode = new HashMap<>();
        for (Decision.Assignment a : decision.assignments()) {
            PodDemand d = demand.stream()
                    .filter(x ->
                            x.component().equals(a.component()) && x.instance().equals(a.instance()))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("assignment for unknown " + a.component()));
            perNode.merge(a.node(), d.perPod(), ResourceList::plus);
        }
        return perNode;
    }

    /** Holds a reservation recorded earlier (a restarted or newly elected broker restoring its placements). */
    public void hold(Reservation r) {
        reservations.put(r.placementId(), r);
        publish();
    }

    /** Drops a reservation (the placement was deleted or moved elsewhere). */
    public Optional<Reservation> release(String placementId) {
        Optional<Reservation> r = Optional.ofNullable(reservations.remove(placementId));
        publish();
        return r;
    }

    private void publish() {
        published.set(new FleetSnapshot(clusters, reservations, received, nodeIndex));
    }
}
