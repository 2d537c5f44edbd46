package dev.cartograph.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The {@code workload} record: a {@link WorkloadSummary}. Thread-safe. */
final class WorkloadSummaryCodec {
    private WorkloadSummaryCodec() {}

    static byte[] encode(WorkloadSummary w) {
        ObjectNode o = Envelope.header("workload");
        WorkloadKey k = w.key();
        o.put("cluster", k.cluster())
                .put("namespace", k.namespace())
                .put("group", k.group())
                .put("kind", k.kind())
                .put("name", k.name())
                .put("apiVersion", w.apiVersion())
                .put("incarnation", w.incarnation())
                .put("sequence", w.sequence())
                .put("observed", w.observed().toString());
        w.placementId().ifPresent(p -> o.put("placementId", p));
        o.put("phase", w.phase());
        ArrayNode phases = o.putArray("phases");
        w.phases().forEach(phases::add);
        o.put("pods", w.pods()).put("minMember", w.minMember());
        Fields.resources(o, "resources", w.resources());
        ArrayNode roles = o.putArray("roles");
        for (WorkloadSummary.Role r : w.roles()) {
            ObjectNode ro = roles.addObject()
                    .put("component", r.component())
                    .put("instance", r.instance())
                    .put("desired", r.desired())
                    .put("min", r.min());
            r.max().ifPresent(m -> ro.put("max", m));
            Fields.resources(ro, "perPod", r.perPod());
        }
        if (!w.status().isNull()) {
            o.set("status", w.status());
        }
        return Envelope.bytes(o);
    }

    static Decoded<WorkloadSummary> decode(byte[] value) {
        return Envelope.decode(value, "workload", o -> {
            List<String> phases = new ArrayList<>();
            o.path("phases").forEach(p -> phases.add(p.asText()));
            List<WorkloadSummary.Role> roles = new ArrayList<>();
            for (JsonNode r : o.path("roles")) {
                roles.add(new WorkloadSummary.Role(
                        Fields.text(r, "component"),
                        Fields.text(r, "instance"),
                        Fields.number(r, "desired"),
                        Fields.number(r, "min"),
                        r.has("max") ? Optional.of(r.get("max").asLong()) : Optional.empty(),
                        Fields.resources(r, "perPod")));
            }
            WorkloadKey key = new WorkloadKey(
                    Fields.text(o, "cluster"),
                    Fields.textOr(o, "namespace", ""),
                    Fields.textOr(o, "group", ""),
                    Fields.text(o, "kind"),
                    Fields.text(o, "name"));
            return new WorkloadSummary(
                    key,
                    Fields.text(o, "apiVersion"),
                    Fields.text(o, "incarnation"),
                    Fields.number(o, "sequence"),
                    Fields.instant(o, "observed"),
                    Optional.ofNullable(o.path("placementId").textValue()),
                    Fields.text(o, "phase"),
                    phases,
                    Fields.number(o, "pods"),
                    Fields.resources(o, "resources"),
                    o.path("minMember").asLong(0),
                    roles,
                    o.path("status"));
        });
    }
}
