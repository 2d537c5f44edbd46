package dev.cartograph.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.definition.WorkloadDefinition;
import dev.cartograph.interpreter.resolve.PodAttribution;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A workload's live pods grouped by "component/instance" (unattributed ones under "?/?"), unhealthy first. */
final class LivePods {
    private LivePods() {}

    static Map<String, List<PodSummary>> group(WorkloadDefinition definition, List<JsonNode> pods) {
        Map<String, List<PodSummary>> out = new LinkedHashMap<>();
        for (JsonNode pod : pods) {
            String key = PodAttribution.attribute(definition, pod)
                    .map(a -> a.component() + "/" + a.instance().orElse(a.component()))
                    .orElse("?/?");
            out.computeIfAbsent(key, k -> new ArrayList<>()).add(PodSummary.of(pod));
        }
        out.values().forEach(list -> list.sort(PodSummary.UNHEALTHY_FIRST));
        return out;
    }

    /** The pods table: per role, unhealthy first, at most {@code limit} each. */
    static String table(Map<String, List<PodSummary>> pods, int limit) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"ROLE", "POD", "NODE", "PHASE", "READY", "RESTARTS", "REASON"});
        List<String> more = new ArrayList<>();
        pods.forEach((role, list) -> {
            String shown = role.endsWith("/" + role.substring(0, role.indexOf('/')))
                    ? role.substring(0, role.indexOf('/'))
                    : role;
            list.stream()
                    .limit(limit)
                    .forEach(p -> rows.add(new String[] {
                        shown,
                        p.name(),
                        p.node().isEmpty() ? "<none>" : p.node(),
                        p.phase(),
                        p.ready() ? "yes" : "no",
                        String.valueOf(p.restarts()),
                        p.reason().isEmpty() ? "-" : p.reason()
                    }));
            if (list.size() > limit) {
                more.add("  … " + (list.size() - limit) + " more " + shown + " pods (--pod-limit)");
            }
        });
        if (rows.size() == 1) {
            return "Pods:    none found\n";
        }
        return "\nPods:\n" + Columns.render(rows) + (more.isEmpty() ? "" : String.join("\n", more) + "\n");
    }
}
