package dev.cartograph.broker.coordinate;

import dev.cartograph.fairshare.QueueReport;
import dev.cartograph.fleet.FleetSnapshot;
import dev.cartograph.placement.Decision;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.WorkloadSummary;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.pcollections.PMap;
import org.pcollections.PSequence;

/**
 * What the coordinator publishes after every batch of inputs, for the REST API and tests to read
 * without locks. Immutable; publishing one costs the same however many placements there are.
 *
 * @param queue     queued uids in the order they will be tried
 * @param decisions the latest decision per uid (with the per-cluster explanation)
 * @param members   the member copy's latest summary per placed uid
 * @param quarantined inputs that failed to be handled and were skipped (their objects carry the reason)
 * @param queues    each queue's quota, use and waiting gangs (ADR 0006); empty without Queues on the hub
 * @param recovered placements this instance found placed without a record and made again (an alarm: a placements
 *                  topic lost or recreated, or records a standby could not read)
 * @param placementsLost times this instance found its placements topic deleted or created again while it ran (an
 *                  alarm; as leader it wrote every record it holds again)
 */
public record BrokerView(
        FleetSnapshot fleet,
        Map<String, PlacementRecord> placements,
        List<String> queue,
        Map<String, Decision> decisions,
        Map<String, WorkloadSummary> members,
        boolean leading,
        boolean caughtUp,
        long poisonRecords,
        long quarantined,
        QueueReport queues,
        long recovered,
        long placementsLost,
        Instant at) {
    public static final BrokerView EMPTY = new BrokerView(
            FleetSnapshot.EMPTY,
            Map.of(),
            List.of(),
            Map.of(),
            Map.of(),
            false,
            false,
            0,
            0,
            QueueReport.EMPTY,
            0,
            0,
            Instant.EPOCH);

    /** A view without queues. */
    public BrokerView(
            FleetSnapshot fleet,
            Map<String, PlacementRecord> placements,
            List<String> queue,
            Map<String, Decision> decisions,
            Map<String, WorkloadSummary> members,
            boolean leading,
            boolean caughtUp,
            long poisonRecords,
            long quarantined,
            Instant at) {
        this(
                fleet,
                placements,
                queue,
                decisions,
                members,
                leading,
                caughtUp,
                poisonRecords,
                quarantined,
                QueueReport.EMPTY,
                0,
                0,
                at);
    }

    public BrokerView {
        placements = frozen(placements);
        queue = queue instanceof PSequence<String> persistent ? persistent : List.copyOf(queue);
        decisions = frozen(decisions);
        members = frozen(members);
    }

    /** Persistent collections (what the coordinator publishes) are immutable already: shared, not copied per batch. */
    private static <K, V> Map<K, V> frozen(Map<K, V> m) {
        return m instanceof PMap<K, V> persistent ? persistent : Map.copyOf(m);
    }

    /** Active: leads (or needs no election) and has read every topic up to where it stood at start. */
    public boolean active() {
        return leading && caughtUp;
    }
}
