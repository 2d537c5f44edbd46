package dev.cartograph.broker.coordinate;

import dev.cartograph.fleet.Reservation;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What a batch, and the unit of it being handled (an input, one gang's attempt; units nest), changed: each placement's
 * state and reservation as they were before it first changed them. The {@link PlacementStore} writes to it on every
 * change and restores from it: a batch whose effects do not commit is undone whole, a unit that throws is undone
 * alone. Coordinator thread only.
 */
final class UndoJournal {
    /** A placement's state and reservation before the batch (or unit) first changed it. */
    record Before(Optional<PlacementState> state, Optional<Reservation> reservation) {}

    /** What a unit changed, handed back to the unit around it when it ends. */
    record Unit(Map<String, Before> changed) {}

    private final Map<String, Before> batch = new LinkedHashMap<>();
    private Map<String, Before> unit = new HashMap<>();

    /** A batch starts: nothing changed yet. */
    void begin() {
        batch.clear();
        unit = new HashMap<>();
    }

    /** A unit starts; returns the unit around it, for {@link #endUnit}. */
    Unit beginUnit() {
        Unit outer = new Unit(unit);
        unit = new HashMap<>();
        return outer;
    }

    /** The unit is done: what it changed counts as changed by the unit around it. */
    void endUnit(Unit outer) {
        unit.forEach(outer.changed()::putIfAbsent);
        unit = outer.changed();
    }

    /** The placement is about to change: how it is now is remembered, unless the batch and unit already have it. */
    void touch(String uid, Supplier<Before> now) {
        if (!batch.containsKey(uid) || !unit.containsKey(uid)) {
            Before before = now.get();
            batch.putIfAbsent(uid, before);
            unit.putIfAbsent(uid, before);
        }
    }

    /** What was observed of the placement is newer than anything the batch did to it: nothing of it is undone. */
    void observed(String uid) {
        batch.remove(uid);
        unit.remove(uid);
    }

    /** A durable record's reservation is held again: undoing keeps it held. */
    void held(Reservation r) {
        batch.computeIfPresent(r.placementId(), (uid, b) -> new Before(b.state(), Optional.of(r)));
        unit.computeIfPresent(r.placementId(), (uid, b) -> new Before(b.state(), Optional.of(r)));
    }

    /** The batch is durable: nothing of it will be undone. */
    void committed() {
        begin();
    }

    /** What the unit changed, to undo it; the unit starts afresh. */
    Map<String, Before> takeUnit() {
        Map<String, Before> out = new LinkedHashMap<>(unit);
        unit.clear();
        return out;
    }

    /** What the batch changed, to undo it; the batch starts afresh. */
    Map<String, Before> takeBatch() {
        Map<String, Before> out = new LinkedHashMap<>(batch);
        begin();
        return out;
    }

    /** The placements the batch changed so far. */
    Set<String> touched() {
        return Set.copyOf(batch.keySet());
    }
}
