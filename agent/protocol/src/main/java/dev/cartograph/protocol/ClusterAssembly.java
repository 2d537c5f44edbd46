package dev.cartograph.protocol;

import dev.cartograph.protocol.ClusterRecord.Gone;
import dev.cartograph.protocol.ClusterRecord.Header;
import dev.cartograph.protocol.ClusterRecord.Key;
import dev.cartograph.protocol.ClusterRecord.Kind;
import dev.cartograph.protocol.ClusterRecord.Node;
import dev.cartograph.protocol.ClusterRecord.Placed;
import dev.cartograph.protocol.ClusterRecord.Stamp;
import java.util.HashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * One cluster's {@link ClusterSummary}, put together from its cluster topic's records read in order (one
 * partition): node and placement records are held as they come; each {@link Header} completes a summary of
 * everything held, which {@link #take()} gives with the names of the nodes that changed since the summary taken
 * before (a reader may take only the newest of several headers read together). A header with a new
 * {@link Stamp} (the agent restarted, or re-sent everything after losing records) drops what was not written
 * again under that stamp — nodes deleted while the agent was away — and says every node may have changed. A
 * header older than the newest one completed (by the rule the fleet applies: within an incarnation by
 * sequence, across incarnations by heartbeat) completes nothing, so changes are never lost to a summary the
 * fleet would ignore. The records must already be this cluster's (the reader checks the topic). Holds at most
 * {@value #MAX_NODES} nodes and as many placements. Not thread-safe: one reader.
 */
public final class ClusterAssembly {
    /** The most nodes (and, apart, placements) one cluster may report. */
    public static final int MAX_NODES = 100_000;

    private record Held<T>(T value, Stamp stamp) {}

    /** What one record did. */
    public sealed interface Step {
        /** Held until the next header (or a header older than the newest completed one: ignored). */
        record Held() implements Step {}

        /** A header completed a summary: {@link #take()} it. */
        record Completed() implements Step {}

        /** Refused, for {@code reason}; nothing held changed. */
        record Refused(String reason) implements Step {}
    }

    /**
     * A completed summary; {@code changedNodes} names the nodes added, changed or removed since the summary
     * taken before, empty when any may have (the first summary, a new stamp). {@code doubt} says when the
     * header's counts differ from what was held (records lost or refused).
     */
    public record Summary(ClusterSummary summary, Optional<Set<String>> changedNodes, Optional<String> doubt) {}

    private static final Step HELD = new Step.Held();
    private static final Step COMPLETED = new Step.Completed();

    private final String cluster;
    private final TreeMap<String, Held<NodeState>> nodes = new TreeMap<>();
    private final TreeMap<String, Held<PlacementReport>> placements = new TreeMap<>();
    private final Set<String> changed = new HashSet<>();
    private boolean everything = true;
    private Stamp stamp;
    private Stamp lastStamp;
    /** The newest header that completed a summary, and whether that summary is still to be taken. */
    private Header completed;

    private boolean untaken;
    private Optional<String> doubt = Optional.empty();

    public ClusterAssembly(String cluster) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
    }

    public Step apply(ClusterRecord r) {
        if (r instanceof Header h) {
            return header(h);
        } else if (r instanceof Node n) {
            return node(n);
        } else if (r instanceof Placed p) {
            return placed(p);
        }
        unreadable(((Gone) r).key());
        return HELD;
    }

    /**
     * The record under {@code key} could not be read: what was held for it is dropped (it is no longer
     * known), so a node whose record is refused stops counting rather than keep a stale state.
     */
    public void unreadable(Key key) {
        if (key.kind() == Kind.NODE) {
            if (nodes.remove(key.name()) != null) {
                changed.add(key.name());
            }
        } else if (key.kind() == Kind.PLACEMENT) {
            placements.remove(key.name());
        }
    }

    /** How many nodes are held (for tests and benchmarks). */
    public int nodes() {
        return nodes.size();
    }

    /** The stamp of the newest header read; empty before the first. */
    public Optional<Stamp> stamp() {
        return Optional.ofNullable(stamp);
    }

    /**
     * Whether {@code h}, read next, would complete a summary: it is newer than the newest header that completed
     * one (within an incarnation by sequence, across incarnations by heartbeat), or none has.
     */
    public boolean completes(Header h) {
        return completed == null
                || (completed.stamp().incarnation().equals(h.stamp().incarnation())
                        ? h.sequence() > completed.sequence()
                        : h.heartbeat().isAfter(completed.heartbeat()));
    }

    /**
     * Whether {@code records} more node or placement records can be read without one being refused for the
     * {@value #MAX_NODES} bound, however they are keyed (a reader that skips superseded records relies on it).
     */
    public boolean hasRoomFor(int records) {
        return nodes.size() + (long) records <= MAX_NODES && placements.size() + (long) records <= MAX_NODES;
    }

    private Step node(Node r) {
        String name = r.node().name();
        if (nodes.size() >= MAX_NODES && !nodes.containsKey(name)) {
            return new Step.Refused(
                    "cluster " + cluster + " already holds " + MAX_NODES + " nodes, the most one cluster may report");
        }
        NodeState node = r.node();
        Held<NodeState> before = nodes.put(name, new Held<>(node, stamp(r.stamp())));
        if (before == null || !before.value().equals(node)) {
            changed.add(name);
        }
        return HELD;
    }

    private Step placed(Placed r) {
        String id = r.placement().placementId();
        if (placements.size() >= MAX_NODES && !placements.containsKey(id)) {
            return new Step.Refused("cluster " + cluster + " already holds " + MAX_NODES
                    + " placements, the most one cluster may report");
        }
        placements.put(id, new Held<>(r.placement(), stamp(r.stamp())));
        return HELD;
    }

    /** One instance per stamp, so held records share it. */
    private Stamp stamp(Stamp s) {
        if (!s.equals(lastStamp)) {
            lastStamp = s;
        }
        return lastStamp;
    }

    private Step header(Header h) {
        if (!h.stamp().equals(stamp)) {
            stamp = stamp(h.stamp());
            nodes.values().removeIf(held -> !held.stamp().equals(stamp));
            placements.values().removeIf(held -> !held.stamp().equals(stamp));
            everything = true;
        }
        if (!completes(h)) {
            return HELD;
        }
        completed = h;
        untaken = true;
        doubt = h.nodes() == nodes.size() && h.placements() == placements.size()
                ? Optional.empty()
                : Optional.of("cluster " + cluster + " says it has " + h.nodes() + " nodes and " + h.placements()
                        + " placements; " + nodes.size() + " and " + placements.size()
                        + " were read (records lost or refused)");
        return COMPLETED;
    }

    /**
     * The summary the newest header completed, if not taken yet: that header with everything held now, and the
     * nodes changed since the summary taken before.
     */
    public Optional<Summary> take() {
        if (!untaken) {
            return Optional.empty();
        }
        untaken = false;
        Header h = completed;
        ClusterSummary s = new ClusterSummary(
                cluster,
                h.labels(),
                h.agentVersion(),
                h.stamp().incarnation(),
                h.sequence(),
                h.heartbeat(),
                nodes.values().stream().map(Held::value).toList(),
                placements.values().stream().map(Held::value).toList(),
                h.unwatched());
        Optional<Set<String>> changedNodes = everything ? Optional.empty() : Optional.of(Set.copyOf(changed));
        changed.clear();
        everything = false;
        return Optional.of(new Summary(s, changedNodes, doubt));
    }
}
