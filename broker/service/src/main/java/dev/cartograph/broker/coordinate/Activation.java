package dev.cartograph.broker.coordinate;

import dev.cartograph.fleet.Fleet;
import dev.cartograph.fleet.Reservation;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import dev.cartograph.protocol.WorkloadSummary;
import java.util.List;
import java.util.Optional;

/**
 * What this instance does once it leads and has caught up with every topic: hold again what the recorded placements
 * reserved, match member copies read before their placement records, act on every hub object, and try the whole
 * queue. Coordinator thread only.
 */
final class Activation implements Runnable {
    private final PlacementStore store;
    private final Fleet fleet;
    private final AgentReports reports;
    private final HubObjects hubObjects;
    private final QueueRetry retry;

    Activation(PlacementStore store, Fleet fleet, AgentReports reports, HubObjects hubObjects, QueueRetry retry) {
        this.store = store;
        this.fleet = fleet;
        this.reports = reports;
        this.hubObjects = hubObjects;
        this.retry = retry;
    }

    @Override
    public void run() {
        for (PlacementRecord p : store.placements()) {
            if ((p.state() == State.PLACED || p.state() == State.APPLIED)
                    && p.cluster().isPresent()
                    && !p.reserved().isEmpty()
                    && store.reservation(p.uid()).isEmpty()) {
                store.holdRecorded(new Reservation(p.uid(), p.cluster().get(), p.epoch(), p.reserved()));
            }
        }
        for (WorkloadSummary s : List.copyOf(store.copies())) {
            reports.copy(s, Optional.empty()); // summaries replayed before their placement records: match them up now
        }
        for (HubObject object : List.copyOf(store.objects())) {
            hubObjects.changed(object);
        }
        retry.changedEverywhere();
    }
}
