package dev.cartograph.mock.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Columns for built-in kinds, after the API server's printers (pkg/printers/internalversion), for
 * the kinds people look at on a GPU cluster: pods, nodes, namespaces and events (core and
 * events.k8s.io); every other kind gets Name and Age. Cells read only what the object carries:
 * the mock runs no kubelet, so a pod is as ready as its stored {@code containerStatuses} say.
 * Pure; thread-safe.
 */
final class BuiltInColumns {
    private BuiltInColumns() {}

    static List<Column> of(String group, String plural) {
        return switch (group + "/" + plural) {
            case "/pods" -> PodColumns.all();
            case "/nodes" -> nodes();
            case "/namespaces" -> namespaces();
            case "/events", "events.k8s.io/events" -> EventColumns.all();
            default -> List.of(Column.nameColumn(), Column.ageColumn());
        };
    }

    private static List<Column> nodes() {
        return List.of(
                Column.nameColumn(),
                Column.text("Status", 0, "The status of the node", (node, now) -> Cells.text(nodeStatus(node))),
                Column.text("Roles", 0, "The roles of the node", (node, now) -> Cells.text(roles(node))),
                Column.ageColumn(),
                Column.text(
                        "Version",
                        0,
                        "Kubelet Version reported by the node.",
                        (node, now) -> Cells.text(node.path("status")
                                .path("nodeInfo")
                                .path("kubeletVersion")
                                .asText())),
                Column.text(
                        "Internal-IP",
                        1,
                        "List of internal IPs for the node.",
                        (node, now) -> address(node, "InternalIP")),
                Column.text(
                        "External-IP",
                        1,
                        "List of external IPs for the node.",
                        (node, now) -> address(node, "ExternalIP")),
                Column.text(
                        "OS-Image",
                        1,
                        "OS image reported by the node.",
                        (node, now) -> Cells.text(node.path("status")
                                .path("nodeInfo")
                                .path("osImage")
                                .asText())),
                Column.text(
                        "Kernel-Version",
                        1,
                        "Kernel version reported by the node.",
                        (node, now) -> Cells.text(node.path("status")
                                .path("nodeInfo")
                                .path("kernelVersion")
                                .asText())),
                Column.text(
                        "Container-Runtime",
                        1,
                        "Container runtime version reported by the node.",
                        (node, now) -> Cells.text(node.path("status")
                                .path("nodeInfo")
                                .path("containerRuntimeVersion")
                                .asText())));
    }

    /** {@code Ready}, {@code NotReady} or {@code Unknown}, plus {@code ,SchedulingDisabled} when cordoned. */
    static String nodeStatus(JsonNode node) {
        String status = "Unknown";
        for (JsonNode condition : node.path("status").path("conditions")) {
            if ("Ready".equals(condition.path("type").asText())) {
                status = "True".equals(condition.path("status").asText()) ? "Ready" : "NotReady";
            }
        }
        return node.path("spec").path("unschedulable").asBoolean(false) ? status + ",SchedulingDisabled" : status;
    }

    /** From the {@code node-role.kubernetes.io/ROLE} and {@code kubernetes.io/role} labels, sorted; {@code <none>} without. */
    static String roles(JsonNode node) {
        TreeSet<String> roles = new TreeSet<>();
        node.path("metadata").path("labels").properties().forEach(label -> {
            if (label.getKey().startsWith("node-role.kubernetes.io/")) {
                roles.add(label.getKey().substring("node-role.kubernetes.io/".length()));
            } else if (label.getKey().equals("kubernetes.io/role")) {
                roles.add(label.getValue().asText());
            }
        });
        roles.remove("");
        return roles.isEmpty() ? Cells.NONE : String.join(",", roles);
    }

    private static JsonNode address(JsonNode node, String type) {
        List<String> addresses = new ArrayList<>();
        node.path("status").path("addresses").forEach(a -> {
            if (type.equals(a.path("type").asText())) {
                addresses.add(a.path("address").asText());
            }
        });
        return Cells.text(addresses.isEmpty() ? Cells.NONE : String.join(",", addresses));
    }

    /** A namespace the mock stored without a phase shows Active, the phase a real server would have defaulted. */
    private static List<Column> namespaces() {
        return List.of(
                Column.nameColumn(),
                Column.text(
                        "Status",
                        0,
                        "The status of the namespace",
                        (ns, now) -> Cells.text(
                                ns.path("status").path("phase").asText().isEmpty()
                                        ? "Active"
                                        : ns.path("status").path("phase").asText())),
                Column.ageColumn());
    }
}
