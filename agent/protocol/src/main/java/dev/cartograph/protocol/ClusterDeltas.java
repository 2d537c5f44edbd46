package dev.cartograph.protocol;

import dev.cartograph.protocol.ClusterRecord.Gone;
import dev.cartograph.protocol.ClusterRecord.Header;
import dev.cartograph.protocol.ClusterRecord.Key;
import dev.cartograph.protocol.ClusterRecord.Kind;
import dev.cartograph.protocol.ClusterRecord.Node;
import dev.cartograph.protocol.ClusterRecord.Placed;
import dev.cartograph.protocol.ClusterRecord.Stamp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What an agent writes to its cluster topic, round after round: from the whole {@link ClusterSummary} it
 * builds, only the nodes and placements that changed since the previous round (a tombstone for one that is
 * gone), then the {@link Header}. The first round of an incarnation writes every node and placement before
 * its first header, so a reader drops whatever an earlier incarnation wrote that is not there any more. When
 * records may have been lost ({@link #lost()}: a send failed, the producer was replaced), the next round
 * writes everything again under a new {@link Stamp#resync()}, with the same effect. Not thread-safe: one
 * publishing thread.
 */
public final class ClusterDeltas {
    private final Map<String, NodeState> nodes = new HashMap<>();
    private final Map<String, PlacementReport> placements = new HashMap<>();
    private boolean everything = true;
    private boolean sentAny;
    private long resync;

    /** Records may have been lost: the next round writes everything, under a new resync stamp. */
    public void lost() {
        everything = true;
    }

    /** The records that take a reader from the previous round to {@code s}, header last. */
    public List<ClusterRecord> next(ClusterSummary s) {
        if (everything && sentAny) {
            resync++;
        }
        Stamp stamp = new Stamp(s.incarnation(), resync);
        List<ClusterRecord> out = new ArrayList<>();
        Map<String, NodeState> nowNodes = new HashMap<>();
        for (NodeState n : s.nodes()) {
            nowNodes.put(n.name(), n);
            if (everything || !n.equals(nodes.get(n.name()))) {
                out.add(new Node(s.cluster(), stamp, n));
            }
        }
        nodes.keySet().stream()
                .filter(name -> !nowNodes.containsKey(name))
                .sorted()
                .forEach(name -> out.add(new Gone(new Key(Kind.NODE, name))));
        Map<String, PlacementReport> nowPlacements = new HashMap<>();
        for (PlacementReport p : s.placements()) {
            nowPlacements.put(p.placementId(), p);
            if (everything || !p.equals(placements.get(p.placementId()))) {
                out.add(new Placed(s.cluster(), stamp, p));
            }
        }
        placements.keySet().stream()
                .filter(id -> !nowPlacements.containsKey(id))
                .sorted()
                .forEach(id -> out.add(new Gone(new Key(Kind.PLACEMENT, id))));
        out.add(new Header(
                s.cluster(),
                s.labels(),
                s.agentVersion(),
                stamp,
                s.sequence(),
                s.heartbeat(),
                nowNodes.size(),
                nowPlacements.size(),
                s.unwatched()));
        nodes.clear();
        nodes.putAll(nowNodes);
        placements.clear();
        placements.putAll(nowPlacements);
        everything = false;
        sentAny = true;
        return out;
    }
}
