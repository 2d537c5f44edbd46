package dev.cartograph.fleet;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.placement.Decision;
import dev.cartograph.placement.PlanningCluster;
import dev.cartograph.placement.PlanningFleet;
import dev.cartograph.placement.PodDemand;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.PlacementReport;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Fleet state with exactly one writer: agent summaries and the broker's own reservations go in
 * here, in order, on the writer's thread. Each cluster keeps a capacity index that placement decides
 * on ({@link #planning}); a change costs in proportion to the nodes it touches. Readers on other
 * threads get an immutable {@link FleetSnapshot}, made when asked for after a change. Not
 * thread-safe: every method, {@link #snapshot()} included, belongs to the writer's thread (which
 * hands snapshots on).
 */
public final class Fleet {
    /** Whether a summary was taken or ignored as older than what is held. */
    public enum Outcome {
        ACCEPTED,
        STALE
    }

    private final Map<String, Member> members = new TreeMap<>();
    private final Map<String, Reservation> reservations = new HashMap<>();
    private FleetSnapshot published = FleetSnapshot.EMPTY;
    private boolean changed;

    /** The fleet as it stands, immutable, to hand to other threads. */
    public FleetSnapshot snapshot() {
        if (changed) {
            Map<String, ClusterSummary> clusters = new HashMap<>();
            Map<String, Instant> received = new HashMap<>();
            Map<String, Map<String, ResourceList>> placed = new HashMap<>();
            members.forEach((name, m) -> {
                if (m.summary() == null) {
                    return; // reservations held before its first summary
                }
                clusters.put(name, m.summary());
                received.put(name, m.received());
                placed.put(name, m.placed());
            });
            published = new FleetSnapshot(clusters, reservations, received, placed);
            changed = false;
        }
        return published;
    }

    /** What placement decides on: every cluster's capacity index and its readiness now. Writer thread only. */
    public PlanningFleet planning(Instant now, Duration heartbeatTimeout) {
        List<PlanningCluster> out = new ArrayList<>(members.size());
        members.forEach((name, m) -> {
            if (m.summary() != null) {
                out.add(new PlanningCluster(
                        name, m.summary().labels(), ready(name, now, heartbeatTimeout), m.capacity()));
            }
        });
        return new PlanningFleet(out);
    }

    /** A cluster is ready while its newest summary was received less than {@code timeout} ago (by this clock). */
    public boolean ready(String cluster, Instant now, Duration timeout) {
        Member m = members.get(cluster);
        return m != null
                && m.received() != null
                && Duration.between(m.received(), now).compareTo(timeout) <= 0;
    }

    /** The newest summary of a cluster. */
    public Optional<ClusterSummary> summary(String cluster) {
        Member m = members.get(cluster);
        return m == null ? Optional.empty() : Optional.ofNullable(m.summary());
    }

    /** When a cluster's newest summary was received, by this broker's clock. */
    public Optional<Instant> received(String cluster) {
        Member m = members.get(cluster);
        return m == null ? Optional.empty() : Optional.ofNullable(m.received());
    }

    /** Every cluster heard from, in name order. */
    public List<String> clusters() {
        List<String> out = new ArrayList<>();
        members.forEach((name, m) -> {
            if (m.summary() != null) {
                out.add(name);
            }
        });
        return out;
    }

    /** The GPU model ({@code nvidia.com/gpu.product}; {@code ""} without it) of a node of a cluster; empty when unknown. */
    public Optional<String> gpuModel(String cluster, String node) {
        Member m = members.get(cluster);
        dev.cartograph.protocol.NodeState n = m == null ? null : m.capacity().node(node);
        return n == null ? Optional.empty() : Optional.of(n.gpuProduct());
    }

    /** Allocatable GPUs per model on the clusters ready now: what the fleet has to lend (ADR 0006). */
    public Map<String, Long> gpusByModel(Instant now, Duration heartbeatTimeout) {
        Map<String, Long> out = new TreeMap<>();
        members.forEach((name, m) -> {
            if (m.summary() != null && ready(name, now, heartbeatTimeout)) {
                m.gpusByModel().forEach((model, n) -> out.merge(model, n, Long::sum));
            }
        });
        return out;
    }

    /**
     * The epoch of the copy of {@code placementId} that {@code cluster}'s latest summary lists (what its agent applied
     * last); empty when that summary does not list it, or none was received.
     */
    public Optional<Long> reportedEpoch(String cluster, String placementId) {
        Member m = members.get(cluster);
        ClusterSummary s = m == null ? null : m.summary();
        if (s == null) {
            return Optional.empty();
        }
        return s.placements().stream()
                .filter(p -> p.placementId().equals(placementId))
                .map(PlacementReport::epoch)
                .findFirst();
    }

    public Optional<Reservation> reservation(String placementId) {
        return Optional.ofNullable(reservations.get(placementId));
    }

    public int reservationCount() {
        return reservations.size();
    }

    /**
     * Takes a cluster summary unless it is older than the one held: within an incarnation by
     * sequence, across incarnations (a restarted agent) by the order this broker first read them
     * ({@link Incarnations}; never by the agents' clocks). Releases reservations the agent now
     * accounts for.
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
    public Outcome accept(ClusterSummary s, Instant receivedAt, Set<String> changedNodes) {
        Member m = members.get(s.cluster());
        ClusterSummary held = m == null ? null : m.summary();
        if (held != null
                && (held.incarnation().equals(s.incarnation())
                        ? s.sequence() <= held.sequence()
                        : m.incarnations().older(s.incarnation(), held.incarnation()))) {
            return Outcome.STALE;
        }
        if (m == null) {
            m = new Member();
            members.put(s.cluster(), m);
        }
        m.incarnations().read(s.incarnation());
        boolean sameAgent = held != null && held.incarnation().equals(s.incarnation());
        // what the agent now accounts for is released in the same step as its nodes are taken in: never
        // counted twice on a node, so never displaced on the way out
        List<Map<String, ResourceList>> accounted = new ArrayList<>();
        for (PlacementReport p : s.placements()) {
            Reservation r = reservations.get(p.placementId());
            if (r != null && r.cluster().equals(s.cluster()) && p.epoch() >= r.epoch() && p.pendingPods() == 0) {
                reservations.remove(p.placementId());
                accounted.add(r.perNode());
            }
        }
        m.summary(s, receivedAt, sameAgent ? changedNodes : null, accounted);
        changed = true;
        return Outcome.ACCEPTED;
    }

    /** Reserves what a placement decision assigned, node by node, until the agent accounts for it. */
    public Reservation reserve(String placementId, long epoch, Decision.Placed decision, List<PodDemand> demand) {
        Reservation r = new Reservation(placementId, decision.cluster(), epoch, perNode(decision, demand));
        hold(r);
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
        hold(r);
        return r;
    }

    /** Per node, what the decision's pods there request (pods of one demand on one node counted first, then multiplied). */
    private static Map<String, ResourceList> perNode(Decision.Placed decision, List<PodDemand> demand) {
        Map<String, PodDemand> byInstance = new HashMap<>();
        demand.forEach(d -> byInstance.putIfAbsent(d.component() + "\u0000" + d.instance(), d));
        Map<String, Map<PodDemand, Long>> counts = new HashMap<>();
        for (Decision.Assignment a : decision.assignments()) {
            PodDemand d = byInstance.get(a.component() + "\u0000" + a.instance());
            if (d == null) {
                throw new IllegalArgumentException("assignment for unknown " + a.component());
            }
            counts.computeIfAbsent(a.node(), k -> new java.util.IdentityHashMap<>())
                    .merge(d, 1L, Long::sum);
        }
        Map<String, ResourceList> perNode = new HashMap<>();
        counts.forEach((node, byDemand) -> byDemand.forEach(
                (d, n) -> perNode.merge(node, n == 1 ? d.perPod() : d.perPod().times(n), ResourceList::plus)));
        return perNode;
    }

    /** Holds a reservation recorded earlier (a restarted or newly elected broker restoring its placements). */
    public void hold(Reservation r) {
        drop(r.placementId());
        reservations.put(r.placementId(), r);
        Member m = members.get(r.cluster());
        if (m == null) {
            m = new Member();
            members.put(r.cluster(), m);
        }
        m.reserve(r.perNode(), 1);
        changed = true;
    }

    /** Drops a reservation (the placement was deleted or moved elsewhere). */
    public Optional<Reservation> release(String placementId) {
        Optional<Reservation> r = Optional.ofNullable(drop(placementId));
        changed |= r.isPresent();
        return r;
    }

    private Reservation drop(String placementId) {
        Reservation r = reservations.remove(placementId);
        if (r != null) {
            members.get(r.cluster()).reserve(r.perNode(), -1);
        }
        return r;
    }
}
