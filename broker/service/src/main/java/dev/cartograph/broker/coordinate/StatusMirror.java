package dev.cartograph.broker.coordinate;

import dev.cartograph.broker.coordinate.PlacementState.Mirrored;
import dev.cartograph.broker.coordinate.PlacementState.Written;
import dev.cartograph.protocol.MetadataKeys;
import dev.cartograph.protocol.WorkloadSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Puts a member copy's status on its hub object: the member's {@code .status} verbatim, its phase in
 * the phase label, and an Event when this instance saw the phase change. Each write is made once
 * per value (the hub object shows it when the write lands) — and again if the object still does not
 * show it {@link #REWRITE_AFTER} later (the write was lost; the hub watch's resync brings the object
 * back). What was written is kept in the placement's state ({@link Mirrored}). Coordinator thread only.
 */
final class StatusMirror {
    static final Duration REWRITE_AFTER = Duration.ofSeconds(30);
    private final PlacementStore store;
    private final Effects effects;
    private final java.time.Clock clock;

    StatusMirror(PlacementStore store, Effects effects, java.time.Clock clock) {
        this.store = store;
        this.effects = effects;
        this.clock = clock;
    }

    void mirror(HubObject object, WorkloadSummary s, Optional<WorkloadSummary> previous) {
        if (!effects.active()) {
            return;
        }
        String uid = object.uid();
        Instant now = clock.instant();
        Mirrored before = store.state(uid).map(PlacementState::mirrored).orElse(Mirrored.NONE);
        Mirrored after = before;
        if (!s.status().isNull() && !s.status().equals(object.status())) {
            String status = s.status().toString();
            if (!pending(before.status(), status, now)) {
                after = new Mirrored(Optional.of(new Written(status, now)), after.phase());
                effects.status(object, s.status());
            }
        }
        if (!s.phase().equals(object.shownPhase()) && !pending(before.phase(), s.phase(), now)) {
            after = new Mirrored(after.status(), Optional.of(new Written(s.phase(), now)));
            effects.mark(object, Map.of(MetadataKeys.PHASE_LABEL, s.phase()), Map.of());
        }
        if (after != before) {
            Mirrored written = after;
            store.update(uid, state -> state.withMirrored(written));
        }
        if (previous.isPresent() && !previous.get().phase().equals(s.phase())) {
            String cluster = s.key().cluster();
            switch (s.phase()) {
                case "Running" ->
                    effects.event(object, EventReason.Running, "running on " + cluster + " (" + s.pods() + " pods)");
                case "Completed" -> effects.event(object, EventReason.Completed, "completed on " + cluster);
                case "Failed" -> effects.event(object, EventReason.Failed, "failed on " + cluster);
                default -> {}
            }
        }
    }

    /** Whether {@code wanted} was written a moment ago (it shows once the write lands). */
    private static boolean pending(Optional<Written> written, String wanted, Instant now) {
        return written.filter(w -> w.value().equals(wanted) && now.isBefore(w.at().plus(REWRITE_AFTER)))
                .isPresent();
    }

    /** The placement moved: what was mirrored for it no longer says anything. */
    void forget(String uid) {
        store.update(uid, state -> state.withMirrored(Mirrored.NONE));
    }
}
