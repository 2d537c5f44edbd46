package dev.cartograph.mock.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * Pod columns after the API server's pod printer: Name, Ready ({@code ready/containers}),
 * Status, Restarts, Age, and for {@code -o wide} IP, Node, Nominated Node, Readiness Gates.
 * Status is the phase, overridden by {@code status.reason}, then by a container's waiting or
 * terminated reason, then by {@code Terminating} once a deletion timestamp is set (init containers
 * and the last-restart age are not shown). Pure; thread-safe.
 */
final class PodColumns {
    private PodColumns() {}

    static List<Column> all() {
        return List.of(
                Column.nameColumn(),
                Column.text(
                        "Ready",
                        0,
                        "The aggregate readiness state of this pod for accepting traffic.",
                        (pod, now) -> Cells.text(ready(pod))),
                Column.text(
                        "Status",
                        0,
                        "The aggregate status of the containers in this pod.",
                        (pod, now) -> Cells.text(status(pod))),
                Column.text(
                        "Restarts",
                        0,
                        "The number of times the containers in this pod have been restarted.",
                        (pod, now) -> Cells.text(Long.toString(restarts(pod)))),
                Column.ageColumn(),
                Column.text(
                        "IP",
                        1,
                        "IP address assigned to the pod",
                        (pod, now) -> Cells.textOrNone(pod.path("status").path("podIP"))),
                Column.text(
                        "Node",
                        1,
                        "Name of the node assigned to the pod",
                        (pod, now) -> Cells.textOrNone(pod.path("spec").path("nodeName"))),
                Column.text(
                        "Nominated Node",
                        1,
                        "Name of the node nominated by the scheduler",
                        (pod, now) -> Cells.textOrNone(pod.path("status").path("nominatedNodeName"))),
                Column.text(
                        "Readiness Gates", 1, "Pod Readiness Gates", (pod, now) -> Cells.text(readinessGates(pod))));
    }

    /** Ready containers (by their stored status) over the containers the spec declares. */
    static String ready(JsonNode pod) {
        long ready = 0;
        for (JsonNode status : pod.path("status").path("containerStatuses")) {
            if (status.path("ready").asBoolean(false)) {
                ready++;
            }
        }
        return ready + "/" + pod.path("spec").path("containers").size();
    }

    static String status(JsonNode pod) {
        JsonNode status = pod.path("status");
        String reason = status.path("phase").asText();
        if (!status.path("reason").asText().isEmpty()) {
            reason = status.path("reason").asText();
        }
        for (JsonNode container : status.path("containerStatuses")) {
            JsonNode waiting = container.path("state").path("waiting");
            JsonNode terminated = container.path("state").path("terminated");
            if (!waiting.path("reason").asText().isEmpty()) {
                reason = waiting.path("reason").asText();
            } else if (!terminated.path("reason").asText().isEmpty()) {
                reason = terminated.path("reason").asText();
            } else if (terminated.isObject()) {
                reason = terminated.path("signal").asInt(0) != 0
                        ? "Signal:" + terminated.path("signal").asInt()
                        : "ExitCode:" + terminated.path("exitCode").asInt();
            }
        }
        if (pod.path("metadata").hasNonNull("deletionTimestamp")) {
            reason = "NodeLost".equals(status.path("reason").asText()) ? "Unknown" : "Terminating";
        }
        return reason.isEmpty() ? "Unknown" : reason;
    }

    static long restarts(JsonNode pod) {
        long restarts = 0;
        for (JsonNode status : pod.path("status").path("containerStatuses")) {
            restarts += status.path("restartCount").asLong(0);
        }
        return restarts;
    }

    private static String readinessGates(JsonNode pod) {
        JsonNode gates = pod.path("spec").path("readinessGates");
        if (gates.isEmpty()) {
            return Cells.NONE;
        }
        long met = 0;
        for (JsonNode gate : gates) {
            for (JsonNode condition : pod.path("status").path("conditions")) {
                if (condition
                                .path("type")
                                .asText()
                                .equals(gate.path("conditionType").asText())
                        && "True".equals(condition.path("status").asText())) {
                    met++;
                }
            }
        }
        return met + "/" + gates.size();
    }
}
