package dev.cartograph.broker.coordinate;

import dev.cartograph.protocol.WorkloadSummary;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Puts a member copy's status on its hub object: the member's {@code .status} verbatim, its phase in
 * the phase label, and an Event when this instance saw the phase change. Each write is made once
 * per value (the hub object shows it when the write lands). Coordinator thread only.
 */
final class StatusMirror {
    private final Effects effects;
    private final Map<String, String> statusWritten = new HashMap<>();
    private final Map<String, String> phaseWritten = new HashMap<>();

    StatusMirror(Effects effects) {
        this.effects = effects;
    }

    void mirror(HubObject object, WorkloadSummary s, Optional<WorkloadSummary> previous) {
        if (!effects.active()) {
            return;
        }
        String uid = object.uid();
        String status = s.status().toString();
        if (!s.status().isNull() && !status.equals(statusWritten.get(uid))) {
            statusWritten.put(uid, status);
            if (!s.status().equals(object.status())) {
                effects.status(object, s.status());
            }
        }
        if (!s.phase().equals(object.shownPhase()) && !s.phase().equals(phaseWritten.get(uid))) {
            phaseWritten.put(uid, s.phase());
            effects.mark(object, Map.of(Hub.PHASE_LABEL, s.phase()), Map.of());
        }
        if (previous.isPresent() && !previous.get().phase().equals(s.phase())) {
            String cluster = s.key().cluster();
            switch (s.phase()) {
                case "Running" -> effects.event(object, EventReason.Running, "running on " + cluster + " (" + s.pods() + " pods)");
                case "Completed" -> effects.event(object, EventReason.Completed, "completed on " + cluster);
                case "Failed" -> effects.event(object, EventReason.Failed, "failed on " + cluster);
                default -> {
                }
            }
        }
    }

    /** The placement moved or is gone: what was mirrored for it no longer says anything. */
    void forget(String uid) {
        statusWritten.remove(uid);
        phaseWritten.remove(uid);
    }
}
