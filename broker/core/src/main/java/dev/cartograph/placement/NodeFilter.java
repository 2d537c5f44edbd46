package dev.cartograph.placement;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.protocol.Taint;
import java.util.Map;

/** Whether a pod may run on a node at all, by the scheduler's rules (readiness, cordon, selector, affinity, taints). Pure. */
final class NodeFilter {
    private NodeFilter() {
    }

    static boolean eligible(PodDemand pod, NodeState node) {
        return node.ready() && node.schedulable() && selects(pod.nodeSelector(), node.labels())
                && affinityHolds(pod, node.labels()) && tolerated(pod, node);
    }

    static boolean selects(Map<String, String> selector, Map<String, String> labels) {
        return selector.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    }

    /** Any nodeSelectorTerm holds (none given: holds). */
    static boolean affinityHolds(PodDemand pod, Map<String, String> labels) {
        if (pod.requiredAffinity().isEmpty()) {
            return true;
        }
        for (JsonNode term : pod.requiredAffinity()) {
            boolean all = true;
            for (JsonNode e : term.path("matchExpressions")) {
                all &= expression(e, labels);
            }
            if (all) {
                return true;
            }
        }
        return false;
    }

    private static boolean expression(JsonNode e, Map<String, String> labels) {
        String value = labels.get(e.path("key").asText());
        java.util.List<String> values = new java.util.ArrayList<>();
        e.path("values").forEach(v -> values.add(v.asText()));
        return switch (e.path("operator").asText()) {
            case "In" -> value != null && values.contains(value);
            case "NotIn" -> value == null || !values.contains(value);
            case "Exists" -> value != null;
            case "DoesNotExist" -> value == null;
            case "Gt" -> value != null && !values.isEmpty() && compare(value, values.get(0)) > 0;
            case "Lt" -> value != null && !values.isEmpty() && compare(value, values.get(0)) < 0;
            default -> false;
        };
    }

    private static int compare(String a, String b) {
        try {
            return Long.compare(Long.parseLong(a), Long.parseLong(b));
        } catch (NumberFormatException ex) {
            return 0;
        }
    }

    /** Every NoSchedule and NoExecute taint is tolerated. */
    static boolean tolerated(PodDemand pod, NodeState node) {
        for (Taint t : node.taints()) {
            if (!t.effect().equals("NoSchedule") && !t.effect().equals("NoExecute")) {
                continue;
            }
            boolean ok = false;
            for (JsonNode tol : pod.tolerations()) {
                String key = tol.path("key").asText("");
                String op = tol.path("operator").asText("Equal");
                String effect = tol.path("effect").asText("");
                boolean keyOk = key.isEmpty() && op.equals("Exists") || key.equals(t.key());
                boolean valueOk = op.equals("Exists") || tol.path("value").asText("").equals(t.value());
                boolean effectOk = effect.isEmpty() || effect.equals(t.effect());
                ok |= keyOk && valueOk && effectOk;
            }
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
