package dev.cartograph.broker.coordinate;

import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.fleet.Fleet;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import dev.cartograph.protocol.WorkloadKey;
import dev.cartograph.protocol.WorkloadSummary;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What agents report, taken in: cluster summaries into the fleet (releasing reservations the agent
 * now accounts for; a cluster whose capacity changed is named, so the gangs that could fit there are tried again),
 * and placed copies (mirrored to their hub object, or fenced when stale). Their answers to commands are the
 * {@link PlacementMachine}'s. Coordinator thread only.
 */
final class AgentReports {
    private static final Logger LOG = LoggerFactory.getLogger(AgentReports.class);
    private final BrokerSettings settings;
    private final Fleet fleet;
    private final PlacementStore store;
    private final Fencing fencing;
    private final HubInventory inventory;
    private final StatusMirror mirror;
    private final Clock clock;
    /** What each cluster's last accepted summary said of what it can take: its nodes and its labels (for cluster selectors). */
    private final Map<String, Shape> last = new HashMap<>();

    private record Shape(List<NodeState> nodes, Map<String, String> labels) {}

    AgentReports(
            BrokerSettings settings,
            Fleet fleet,
            PlacementStore store,
            Fencing fencing,
            HubInventory inventory,
            StatusMirror mirror,
            Clock clock) {
        this.settings = settings;
        this.fleet = fleet;
        this.store = store;
        this.fencing = fencing;
        this.inventory = inventory;
        this.mirror = mirror;
        this.clock = clock;
    }

    /**
     * A cluster summary. Readiness counts from when a live summary was received, by this broker's
     * clock, so skew between an agent's clock and the broker's never fails a healthy cluster over. A
     * summary read back from history (before {@code live}) counts from the agent's own heartbeat time,
     * never later than now: skew can then only shorten the window until that agent is heard live again.
     * {@code changedNodes} (empty: any may have changed) tells the fleet which nodes to look at again.
     *
     * @return the cluster, when what it can take changed: its nodes or labels changed, a reservation on
     *     it was released (its agent now accounts for it), or its readiness flipped; empty otherwise
     */
    Optional<String> cluster(ClusterSummary s, Optional<Set<String>> changedNodes, boolean live) {
        int reservationsBefore = fleet.reservationCount();
        Instant now = clock.instant();
        boolean wasReady = fleet.ready(s.cluster(), now, settings.heartbeatTimeout());
        Instant received = live || s.heartbeat().isAfter(now) ? now : s.heartbeat();
        if (fleet.accept(s, received, changedNodes.orElse(null)) == Fleet.Outcome.STALE) {
            return Optional.empty();
        }
        Shape shape = new Shape(s.nodes(), s.labels());
        Shape before = last.put(s.cluster(), shape);
        boolean nodesOrLabels = changedNodes.isPresent() && before != null
                ? !changedNodes.get().isEmpty()
                        || !s.labels().equals(before.labels()) // told what changed: no comparing
                : !shape.equals(before);
        boolean changed = nodesOrLabels
                || fleet.reservationCount() != reservationsBefore
                || wasReady != fleet.ready(s.cluster(), now, settings.heartbeatTimeout());
        return changed ? Optional.of(s.cluster()) : Optional.empty();
    }

    /** A member workload's summary, or its tombstone (empty). */
    void workload(WorkloadKey key, Optional<WorkloadSummary> summary) {
        if (summary.isEmpty()) {
            store.copyGone(key)
                    .flatMap(WorkloadSummary::placementId)
                    .ifPresent(uid -> fencing.copyGone(uid, key.cluster()));
            return;
        }
        WorkloadSummary s = summary.get();
        if (s.placementId().isEmpty()) {
            return;
        }
        Optional<WorkloadSummary> previous =
                store.copy(s).filter(p -> p.placementId().equals(s.placementId()));
        copy(s, previous);
    }

    /** A placed copy some agent reports: the placement's member (mirrored to the hub), or a stale copy to fence. */
    void copy(WorkloadSummary s, Optional<WorkloadSummary> previous) {
        String uid = s.placementId().orElseThrow();
        Optional<PlacementRecord> p = store.placement(uid);
        if (stray(uid, s.key(), p)) {
            fencing.fence(uid, s.key(), p);
            return;
        }
        if (p.isEmpty() || !p.get().cluster().equals(Optional.of(s.key().cluster()))) {
            return; // no record yet: its hub object is adopted, or not listed yet
        }
        if (p.get().state() != State.QUEUED) { // a preempted gang's suspended copy: the hub shows it waiting
            store.object(uid).filter(o -> !o.deleting()).ifPresent(o -> mirror.mirror(o, s, previous));
        }
    }

    /**
     * Whether a reported copy is a stray to fence: its placement lives on another cluster; or there is no placement and
     * no hub object of it (or one whose deletion is over but for its finalizer), and this instance has listed every hub
     * object of its kind (one it has not read yet may still have a placement to adopt it,
     * {@link PlacementTransition.Step.Adopt}).
     */
    private boolean stray(String uid, WorkloadKey copy, Optional<PlacementRecord> p) {
        if (p.isPresent()) {
            return !p.get().cluster().equals(Optional.of(copy.cluster()));
        }
        return store.object(uid).filter(o -> !o.deleting()).isEmpty()
                && inventory.listed(HubInventory.kind(copy.group(), copy.kind()));
    }

    /**
     * The clusters whose agents report a copy of the hub object, each with the epoch that copy was applied at (0 when
     * its cluster's summary does not say): what a placement whose record was lost is made again from. One look-up
     * when there is none (a new object).
     */
    Map<String, Long> copiesOf(HubObject object) {
        Map<String, Long> out = new HashMap<>();
        for (WorkloadSummary s : store.copiesOf(object.uid())) {
            String cluster = s.key().cluster();
            out.put(cluster, fleet.reportedEpoch(cluster, object.uid()).orElse(0L));
        }
        return out;
    }

    /**
     * Level-triggered fencing, once per tick: every reported copy whose placement is gone or lives on
     * another cluster is fenced (once per cluster and epoch, see {@link Fencing}). A copy reported
     * while its deletion was under way, then answered DELETED by an agent that had not seen it yet,
     * would otherwise stay until its summary changed.
     */
    void fenceStale() {
        for (WorkloadSummary s : List.copyOf(store.copies())) {
            String uid = s.placementId().orElse("");
            Optional<PlacementRecord> p = uid.isEmpty() ? Optional.empty() : store.placement(uid);
            if (!uid.isEmpty() && stray(uid, s.key(), p)) {
                fencing.fence(uid, s.key(), p);
            }
        }
    }
}
