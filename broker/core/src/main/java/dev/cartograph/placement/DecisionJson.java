package dev.cartograph.placement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A decision as JSON, the one shape {@code carto plan -o json} prints and {@code POST /api/v1/plan}
 * answers: {@code {"decision":"Placed"|"Unschedulable","cluster":name|null,"assignments":[{"component",
 * "instance","pod","node"}],"pin":{label:value},"clusters":[{"name","fits","reason","score"}]}} ({@code pin}: the
 * topology domain a placed gang is kept in, only when there is one). Pure.
 */
public final class DecisionJson {
    private DecisionJson() {}

    public static ObjectNode encode(Decision d) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("decision", d instanceof Decision.Placed ? "Placed" : "Unschedulable");
        d.chosen().ifPresentOrElse(c -> o.put("cluster", c), () -> o.putNull("cluster"));
        ArrayNode assignments = o.putArray("assignments");
        if (d instanceof Decision.Placed p) {
            p.assignments()
                    .forEach(a -> assignments
                            .addObject()
                            .put("component", a.component())
                            .put("instance", a.instance())
                            .put("pod", a.pod())
                            .put("node", a.node()));
            if (!p.pin().isEmpty()) {
                ObjectNode pin = o.putObject("pin");
                new java.util.TreeMap<>(p.pin()).forEach(pin::put);
            }
        }
        ArrayNode clusters = o.putArray("clusters");
        d.clusters()
                .forEach(v -> clusters.addObject()
                        .put("name", v.cluster())
                        .put("fits", v.fits())
                        .put("reason", v.reason())
                        .put("score", v.score()));
        return o;
    }

    /** Reads {@link #encode}'s shape; empty when it is not one. */
    public static Optional<Decision> decode(JsonNode o) {
        String decision = o.path("decision").asText("");
        if (!decision.equals("Placed") && !decision.equals("Unschedulable")
                || !o.path("clusters").isArray()) {
            return Optional.empty();
        }
        List<Decision.Verdict> verdicts = new ArrayList<>();
        o.path("clusters")
                .forEach(v -> verdicts.add(new Decision.Verdict(
                        v.path("name").asText(),
                        v.path("fits").asBoolean(),
                        v.path("reason").asText(""),
                        v.path("score").asLong(0))));
        if (decision.equals("Unschedulable")) {
            return Optional.of(new Decision.Unschedulable(verdicts));
        }
        List<Decision.Assignment> assignments = new ArrayList<>();
        o.path("assignments")
                .forEach(a -> assignments.add(new Decision.Assignment(
                        a.path("component").asText(),
                        a.path("instance").asText(),
                        a.path("pod").asInt(),
                        a.path("node").asText())));
        java.util.Map<String, String> pin = new java.util.TreeMap<>();
        o.path("pin")
                .fields()
                .forEachRemaining(e -> pin.put(e.getKey(), e.getValue().asText()));
        return Optional.of(new Decision.Placed(o.path("cluster").asText(), assignments, verdicts, pin));
    }
}
