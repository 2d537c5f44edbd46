package dev.cartograph.simulator.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The status objects one workload kind's controller writes when its pods run ({@code running}), for
 * batch kinds when they have finished ({@code completed}), for kinds that can be suspended when its
 * spec says so and the pods are gone ({@code suspended}) and when its spec is resumed, before the pods
 * run again ({@code resumed}); and the labels that kind's controller puts on its pods
 * ({@code podLabels}, with {@code {workload}}, {@code {component}}, {@code {instance}}, {@code {index}}
 * and {@code {gang}} placeholders). A kind without {@code completed} is a service: it keeps running.
 * Immutable; the JSON is never handed out unrendered.
 */
public record StatusShapes(
        JsonNode running,
        Optional<JsonNode> completed,
        Optional<JsonNode> suspended,
        Optional<JsonNode> resumed,
        Map<String, String> podLabels) {
    /** A string value that is replaced by the write time. */
    public static final String NOW = "${now}";

    public StatusShapes {
        Objects.requireNonNull(running, "running");
        Objects.requireNonNull(completed, "completed");
        Objects.requireNonNull(suspended, "suspended");
        Objects.requireNonNull(resumed, "resumed");
        podLabels = Map.copyOf(podLabels);
    }

    /** Shapes of a kind that is never suspended. */
    public StatusShapes(JsonNode running, Optional<JsonNode> completed, Map<String, String> podLabels) {
        this(running, completed, Optional.empty(), Optional.empty(), podLabels);
    }

    public boolean batch() {
        return completed.isPresent();
    }

    public JsonNode runningAt(Instant now) {
        return render(running, now);
    }

    public Optional<JsonNode> completedAt(Instant now) {
        return completed.map(c -> render(c, now));
    }

    public Optional<JsonNode> suspendedAt(Instant now) {
        return suspended.map(c -> render(c, now));
    }

    public Optional<JsonNode> resumedAt(Instant now) {
        return resumed.map(c -> render(c, now));
    }

    /** The kind's pod labels for one pod, placeholders filled in. */
    public Map<String, String> labelsFor(String workload, String component, String instance, int index, String gang) {
        Map<String, String> out = new LinkedHashMap<>();
        podLabels.forEach((k, v) -> out.put(
                k,
                v.replace("{workload}", workload)
                        .replace("{component}", component)
                        .replace("{instance}", instance)
                        .replace("{index}", Integer.toString(index))
                        .replace("{gang}", gang)));
        return out;
    }

    /** A copy of {@code shape} with every {@value #NOW} string replaced by {@code now} (RFC 3339, seconds). */
    static JsonNode render(JsonNode shape, Instant now) {
        JsonNode copy = shape.deepCopy();
        fill(copy, now.truncatedTo(ChronoUnit.SECONDS).toString());
        return copy;
    }

    private static void fill(JsonNode node, String now) {
        if (node instanceof ObjectNode o) {
            o.fieldNames().forEachRemaining(name -> {
                if (NOW.equals(o.get(name).asText(null)) && o.get(name).isTextual()) {
                    o.set(name, TextNode.valueOf(now));
                } else {
                    fill(o.get(name), now);
                }
            });
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                if (a.get(i).isTextual() && NOW.equals(a.get(i).asText())) {
                    a.set(i, TextNode.valueOf(now));
                } else {
                    fill(a.get(i), now);
                }
            }
        }
    }
}
