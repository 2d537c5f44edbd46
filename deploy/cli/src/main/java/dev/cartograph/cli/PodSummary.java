package dev.cartograph.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Comparator;

/** What describe shows of a live pod: where it runs and whether it is healthy. Immutable. */
record PodSummary(String name, String node, String phase, String reason, boolean ready, int restarts) {

    /** Unhealthy pods first, then by name. */
    static final Comparator<PodSummary> UNHEALTHY_FIRST =
            Comparator.comparing(PodSummary::healthy).thenComparing(PodSummary::name);

    static PodSummary of(JsonNode pod) {
        JsonNode status = pod.path("status");
        String reason = status.path("reason").asText("");
        int restarts = 0;
        for (JsonNode cs : status.path("containerStatuses")) {
            restarts += cs.path("restartCount").asInt(0);
            if (reason.isEmpty()) {
                reason = cs.path("state")
                        .path("waiting")
                        .path("reason")
                        .asText(cs.path("state")
                                .path("terminated")
                                .path("reason")
                                .asText(""));
            }
        }
        return new PodSummary(
                pod.path("metadata").path("name").asText(),
                pod.path("spec").path("nodeName").asText(""),
                status.path("phase").asText("Unknown"),
                reason,
                ready(pod),
                restarts);
    }

    static boolean ready(JsonNode pod) {
        for (JsonNode c : pod.path("status").path("conditions")) {
            if ("Ready".equals(c.path("type").asText())) {
                return "True".equals(c.path("status").asText());
            }
        }
        return false;
    }

    boolean healthy() {
        return "Succeeded".equals(phase) || "Running".equals(phase) && ready;
    }
}
