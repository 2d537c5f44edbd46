package dev.cartograph.broker.coordinate;

import dev.cartograph.protocol.MetadataKeys;
import dev.cartograph.protocol.WorkloadSummary;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Puts a member copy's status on its hub object: the member's {@code .status} verbatim, its phase in
 * the phase label, and an Event when this instance saw the phase change. Each write is made once
 * per value (the hub object shows it when the write lands) — and again if the object still does not
 * show it {@link #REWRITE_AFTER} later (the write was lost; the hub watch's resync brings the object
 * back). Coordinator thread only.
 */
final class StatusMirror {
    static final java.time.Duration REWRITE_AFTER = java.time.Duration.ofSeconds(30);
    private final Effects effects;
    private final java.time.Clock clock;
    private final Map<String, Written> statusWritten = new HashMap<>();
    private final Map<String, Written> phaseWritten = new HashMap<>();

    /** A value written on a hub object, and when. */
    private record Written(String value, java.time.Instant at) {
        boolean stillPending(String wanted, java.time.Instant now) {
            return value.equals(wanted) && now.isBefore(at.plus(REWRITE_AFTER));
        }
    }

    StatusMirror(Effects effects, java.time.Clock clock) {
        this.effects = effects;
        this.clock = clock;
    }

    void mirror(HubObject object, WorkloadSummary s, Optional<WorkloadSummary> previous) {
        if (!effects.active()) {
            return;
        }
        String uid = object.uid();
        java.time.Instant now = clock.instant();
        if (!s.status().isNull() && !s.status().equals(object.status())) {
            String status = s.status().toString();
            Written before = statusWritten.get(uid);
            if (before == null || !before.stillPending(status, now)) {
                statusWritten.put(uid, new Written(status, now));
                effects.status(object, s.status());
            }
        }
        if (!s.phase().equals(object.shownPhase())) {
            Written before = phaseWritten.get(uid);
            if (before == null || !before.stillPending(s.phase(), now)) {
                phaseWritten.put(uid, new Written(s.phase(), now));
                effects.mark(object, Map.of(MetadataKeys.PHASE_LABEL, s.phase()), Map.of());
            }
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

    /** The placement moved or is gone: what was mirrored for it no longer says anything. */
    void forget(String uid) {
        statusWritten.remove(uid);
        phaseWritten.remove(uid);
    }
}
